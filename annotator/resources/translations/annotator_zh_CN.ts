<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Actions</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Go</source>
        <translation>转到(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Phone</source>
        <translation>手机(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Annotate</source>
        <translation>标注(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Review</source>
        <translation>审核(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Open Workspace Folder…</source>
        <translation>打开工作区文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>Open the data folder of another workspace</source>
        <translation>打开另一个工作区的数据文件夹</translation>
    </message>
    <message>
        <source>&amp;Import Bundle…</source>
        <translation>导入数据包(&amp;I)…</translation>
    </message>
    <message>
        <source>Add the trajectories of a bundle (.zip or folder); those already here are skipped</source>
        <translation>添加数据包（.zip 或文件夹）中的轨迹；已有的会跳过</translation>
    </message>
    <message>
        <source>&amp;Export Bundle…</source>
        <translation>导出数据包(&amp;E)…</translation>
    </message>
    <message>
        <source>Write every trajectory with its labels, history and screenshots to a .zip</source>
        <translation>把所有轨迹连同标注、修改历史和截图写入一个 .zip</translation>
    </message>
    <message>
        <source>&amp;Who Is Working…</source>
        <translation>当前使用者(&amp;W)…</translation>
    </message>
    <message>
        <source>Your name and role: labels and reviews are saved under them</source>
        <translation>你的名字和角色：标注与审核都以此署名保存</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Close the window; work in progress finishes first</source>
        <translation>关闭窗口；正在进行的工作会先完成</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Read the trajectories again from the database</source>
        <translation>从数据库重新读取轨迹</translation>
    </message>
    <message>
        <source>&amp;Find Trajectories</source>
        <translation>查找轨迹(&amp;F)</translation>
    </message>
    <message>
        <source>Search instructions and labelled think / action text</source>
        <translation>在指令和已标注的思考 / 动作文本中搜索</translation>
    </message>
    <message>
        <source>Next &amp;Unlabelled Trajectory</source>
        <translation>下一条未标注轨迹(&amp;U)</translation>
    </message>
    <message>
        <source>Open the next trajectory that nobody has labelled yet</source>
        <translation>打开下一条尚无人标注的轨迹</translation>
    </message>
    <message>
        <source>Next Trajectory Needing &amp;Review</source>
        <translation>下一条待审核轨迹(&amp;R)</translation>
    </message>
    <message>
        <source>Open the next annotated trajectory that waits for a reviewer</source>
        <translation>打开下一条已标注、等待审核的轨迹</translation>
    </message>
    <message>
        <source>Refresh &amp;Devices</source>
        <translation>刷新设备(&amp;D)</translation>
    </message>
    <message>
        <source>Look again for connected phones and virtual phones</source>
        <translation>重新查找已连接的手机和虚拟手机</translation>
    </message>
    <message>
        <source>&amp;Start Recording</source>
        <translation>开始录制(&amp;S)</translation>
    </message>
    <message>
        <source>Record a teleoperated trajectory for the chosen instruction</source>
        <translation>为所选指令录制一条人工操作的轨迹</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Stop the recording or the agent run; the steps so far are kept</source>
        <translation>停止录制或智能体运行；已有的步骤会保留</translation>
    </message>
    <message>
        <source>Run the &amp;Agent</source>
        <translation>运行智能体(&amp;A)</translation>
    </message>
    <message>
        <source>Let a model behind an OpenAI-compatible endpoint do the task</source>
        <translation>让 OpenAI 兼容接口背后的模型来完成任务</translation>
    </message>
    <message>
        <source>Phone &amp;Back</source>
        <translation>手机返回键(&amp;B)</translation>
    </message>
    <message>
        <source>Press the phone&apos;s Back button (recorded as a step)</source>
        <translation>按下手机的返回键（记录为一步）</translation>
    </message>
    <message>
        <source>Phone &amp;Home</source>
        <translation>手机主页键(&amp;H)</translation>
    </message>
    <message>
        <source>Press the phone&apos;s Home button (recorded as a step)</source>
        <translation>按下手机的主页键（记录为一步）</translation>
    </message>
    <message>
        <source>&amp;Previous Step</source>
        <translation>上一步(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Next Step</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>Next &amp;Trajectory</source>
        <translation>下一条轨迹(&amp;T)</translation>
    </message>
    <message>
        <source>Open the next trajectory in your queue</source>
        <translation>打开你队列中的下一条轨迹</translation>
    </message>
    <message>
        <source>Step Is &amp;Correct</source>
        <translation>步骤正确(&amp;C)</translation>
    </message>
    <message>
        <source>Step Is &amp;Wrong</source>
        <translation>步骤错误(&amp;W)</translation>
    </message>
    <message>
        <source>Step Is Re&amp;dundant</source>
        <translation>步骤冗余(&amp;D)</translation>
    </message>
    <message>
        <source>Edit &amp;Think</source>
        <translation>编辑思考(&amp;T)</translation>
    </message>
    <message>
        <source>Stage 1: current state, next action, goal</source>
        <translation>第一阶段：当前状态、下一步动作、目标</translation>
    </message>
    <message>
        <source>Edit &amp;Action</source>
        <translation>编辑动作(&amp;A)</translation>
    </message>
    <message>
        <source>Stage 2: a clear low-level instruction</source>
        <translation>第二阶段：清晰的底层操作指令</translation>
    </message>
    <message>
        <source>Edit T&amp;ool Call</source>
        <translation>编辑工具调用(&amp;O)</translation>
    </message>
    <message>
        <source>Stage 3: the precise tool call, checked against the screenshot</source>
        <translation>第三阶段：对照截图核对的精确工具调用</translation>
    </message>
    <message>
        <source>&amp;Keep the Original</source>
        <translation>保留原始内容(&amp;K)</translation>
    </message>
    <message>
        <source>Copy what was collected into the empty label fields of this step</source>
        <translation>把采集到的原始内容复制到本步骤尚未标注的字段</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Insert Corrected Step</source>
        <translation>插入纠正步骤(&amp;I)</translation>
    </message>
    <message>
        <source>After a wrong step, add the step that should have been taken</source>
        <translation>在错误步骤之后，补上本应执行的正确步骤</translation>
    </message>
    <message>
        <source>Re&amp;move Labelled Step</source>
        <translation>移除标注步骤(&amp;M)</translation>
    </message>
    <message>
        <source>Leave a redundant step out of the labelled trajectory; the collected record stays</source>
        <translation>把冗余步骤移出标注轨迹；采集的原始记录仍然保留</translation>
    </message>
    <message>
        <source>Task &amp;Completed</source>
        <translation>任务已完成(&amp;C)</translation>
    </message>
    <message>
        <source>Task &amp;Not Completed</source>
        <translation>任务未完成(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Submit for Review</source>
        <translation>提交审核(&amp;S)</translation>
    </message>
    <message>
        <source>Mark this trajectory as annotated so that a reviewer sees it</source>
        <translation>把这条轨迹标记为已标注，交给审核员</translation>
    </message>
    <message>
        <source>&amp;History</source>
        <translation>修改历史(&amp;H)</translation>
    </message>
    <message>
        <source>Every change to this trajectory: who, when, old and new</source>
        <translation>这条轨迹的每一次修改：谁、何时、旧值与新值</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Fit Screenshot</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Accept</source>
        <translation>接受(&amp;A)</translation>
    </message>
    <message>
        <source>Accept the trajectory in front of you</source>
        <translation>接受当前的轨迹</translation>
    </message>
    <message>
        <source>&amp;Fix and Accept…</source>
        <translation>修改后接受(&amp;F)…</translation>
    </message>
    <message>
        <source>Open it for editing; your edits are revisions; accept when done</source>
        <translation>打开进行修改；你的修改会记入历史；改完后接受</translation>
    </message>
    <message>
        <source>&amp;Reject…</source>
        <translation>拒绝(&amp;R)…</translation>
    </message>
    <message>
        <source>Send it back to the annotator with a comment</source>
        <translation>附上意见退回给标注员</translation>
    </message>
    <message>
        <source>Refresh &amp;Statistics</source>
        <translation>刷新统计(&amp;S)</translation>
    </message>
    <message>
        <source>Export Charts as &amp;PNG…</source>
        <translation>导出图表为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source>Export Statistics as &amp;CSV…</source>
        <translation>导出统计为 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>List every command and change its shortcut</source>
        <translation>列出所有命令并修改快捷键</translation>
    </message>
    <message>
        <source>&amp;About Mobile Annotator</source>
        <translation>关于 Mobile Annotator(&amp;A)</translation>
    </message>
    <message>
        <source>The version, and what this program is for</source>
        <translation>版本号，以及本程序的用途</translation>
    </message>
</context>
<context>
    <name>BrowserView</name>
    <message>
        <source>Finding the next trajectory</source>
        <translation>查找下一条轨迹</translation>
    </message>
    <message>
        <source>No unlabelled trajectory matches the filters.</source>
        <translation>没有符合筛选条件的未标注轨迹。</translation>
    </message>
    <message>
        <source>No trajectory matching the filters is waiting for review.</source>
        <translation>没有符合筛选条件的待审核轨迹。</translation>
    </message>
    <message>
        <source>Loading filter choices</source>
        <translation>加载筛选选项</translation>
    </message>
    <message>
        <source>Counting trajectories</source>
        <translation>统计轨迹数量</translation>
    </message>
    <message>
        <source>No workspace open: choose one with File › Open Workspace Folder…</source>
        <translation>未打开工作区：请通过“文件 › 打开工作区文件夹…”选择一个</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message numerus="yes">
        <source>%Ln trajectories</source>
        <translation>
            <numerusform>共 %Ln 条轨迹</numerusform>
        </translation>
    </message>
    <message>
        <source>Showing %1 of %2 trajectories</source>
        <translation>显示 %2 条轨迹中的 %1 条</translation>
    </message>
    <message>
        <source>%1 unlabelled · %2 awaiting review</source>
        <translation>%1 条未标注 · %2 条待审核</translation>
    </message>
    <message>
        <source>loading more…</source>
        <translation>正在加载更多…</translation>
    </message>
</context>
<context>
    <name>BundleCommands</name>
    <message>
        <source>Export Bundle</source>
        <translation>导出数据包</translation>
    </message>
    <message>
        <source>Zip (*.zip)</source>
        <translation>Zip 压缩包 (*.zip)</translation>
    </message>
    <message>
        <source>Exporting a bundle</source>
        <translation>导出数据包</translation>
    </message>
    <message>
        <source>Import Bundle</source>
        <translation>导入数据包</translation>
    </message>
    <message>
        <source>Bundles (*.zip manifest.json)</source>
        <translation>数据包 (*.zip manifest.json)</translation>
    </message>
    <message>
        <source>Importing a bundle</source>
        <translation>导入数据包</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n trajectory(s) to %1</source>
        <translation>
            <numerusform>已导出 %n 条轨迹到 %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n trajectory(s); %1 were already here</source>
        <translation>
            <numerusform>已导入 %n 条轨迹；%1 条已存在</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FilterBar</name>
    <message>
        <source>All apps</source>
        <translation>全部应用</translation>
    </message>
    <message>
        <source>Labelled by anyone</source>
        <translation>任意标注者</translation>
    </message>
    <message>
        <source>Search instructions, think and action text</source>
        <translation>搜索指令、思考和动作文本</translation>
    </message>
    <message>
        <source>Matches the instruction and every step&apos;s labelled think and action text</source>
        <translation>匹配指令以及每一步已标注的思考和动作文本</translation>
    </message>
    <message>
        <source>Any status</source>
        <translation>任意状态</translation>
    </message>
    <message>
        <source>Any review state</source>
        <translation>任意审核状态</translation>
    </message>
    <message>
        <source>Agents and people</source>
        <translation>智能体和人工</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Show every trajectory again</source>
        <translation>重新显示全部轨迹</translation>
    </message>
</context>
<context>
    <name>IdentityDialog</name>
    <message>
        <source>Annotator</source>
        <translation>标注员</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>审核员</translation>
    </message>
    <message>
        <source>Administrator</source>
        <translation>管理员</translation>
    </message>
    <message>
        <source>Who Is Working?</source>
        <translation>谁在使用？</translation>
    </message>
    <message>
        <source>Every label, correction and review is saved under your name, so that the history and the statistics say who did what. You can change it later in the File menu.</source>
        <translation>每一次标注、修改和审核都会以你的名字保存，历史记录和统计才能说明谁做了什么。之后可以在“文件”菜单中更改。</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>姓名(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Role:</source>
        <translation>角色(&amp;R)：</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Trajectory %1 chosen; this version has no view that opens trajectories.</source>
        <translation>已选择轨迹 %1；此版本还没有可以打开轨迹的视图。</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Opening the workspace</source>
        <translation>打开工作区</translation>
    </message>
    <message>
        <source>Open Workspace Folder</source>
        <translation>打开工作区文件夹</translation>
    </message>
    <message>
        <source>The database was upgraded; a backup of the old one is in %1.</source>
        <translation>数据库已升级；旧数据库的备份位于 %1。</translation>
    </message>
    <message>
        <source>Cannot Open the Workspace</source>
        <translation>无法打开工作区</translation>
    </message>
    <message>
        <source>The workspace in %1 was saved by a newer version of Mobile Annotator.</source>
        <translation>%1 中的工作区由更新版本的 Mobile Annotator 保存。</translation>
    </message>
    <message>
        <source>Install the newer version to open it. Nothing in it was changed.</source>
        <translation>请安装新版本后再打开。工作区中的内容没有任何改动。</translation>
    </message>
    <message>
        <source>The workspace in %1 could not be opened.</source>
        <translation>无法打开 %1 中的工作区。</translation>
    </message>
    <message>
        <source>Counting trajectories</source>
        <translation>统计轨迹数量</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Mobile Annotator %1&lt;/h3&gt;&lt;p&gt;Collect, annotate and review Android GUI-agent trajectories, and export them for training, in the way of the Mobile-R1 paper.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Mobile Annotator %1&lt;/h3&gt;&lt;p&gt;按照 Mobile-R1 论文的方法，采集、标注和审核 Android GUI 智能体的轨迹，并导出为训练数据。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>About Mobile Annotator</source>
        <translation>关于 Mobile Annotator</translation>
    </message>
    <message>
        <source>Mobile Annotator</source>
        <translation>Mobile Annotator</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System Language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Toolbar</source>
        <translation>工具栏</translation>
    </message>
</context>
<context>
    <name>ShortcutSheet</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>What it does</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>&amp;Shortcut for the selected command:</source>
        <translation>所选命令的快捷键(&amp;S)：</translation>
    </message>
    <message>
        <source>Reset to &amp;Default</source>
        <translation>恢复默认(&amp;D)</translation>
    </message>
    <message>
        <source>%1 is already the shortcut of “%2”; choose another one.</source>
        <translation>%1 已是“%2”的快捷键，请换一个。</translation>
    </message>
    <message>
        <source>Saved. The new shortcut works now and in later sessions.</source>
        <translation>已保存。新快捷键立即生效，以后启动时也会使用。</translation>
    </message>
</context>
<context>
    <name>TrajectoryTableModel</name>
    <message>
        <source>ID</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>App</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Instruction</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Collector</source>
        <translation>采集者</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <source>Labelled by</source>
        <translation>标注者</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Loading trajectories</source>
        <translation>加载轨迹</translation>
    </message>
</context>
<context>
    <name>Values</name>
    <message>
        <source>collecting</source>
        <translation>采集中</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>task completed</source>
        <translation>任务完成</translation>
    </message>
    <message>
        <source>task failed</source>
        <translation>任务失败</translation>
    </message>
    <message>
        <source>unlabelled</source>
        <translation>未标注</translation>
    </message>
    <message>
        <source>labelling</source>
        <translation>标注中</translation>
    </message>
    <message>
        <source>awaiting review</source>
        <translation>待审核</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>已通过</translation>
    </message>
    <message>
        <source>rejected</source>
        <translation>已驳回</translation>
    </message>
    <message>
        <source>agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>person</source>
        <translation>人工</translation>
    </message>
</context>
<context>
    <name>Views</name>
    <message>
        <source>Trajectories</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Switch to this view</source>
        <translation>切换到此视图</translation>
    </message>
</context>
<context>
    <name>WindowStatus</name>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1失败：%2</translation>
    </message>
    <message>
        <source>Something went wrong: %1 (the details are in the log)</source>
        <translation>出错了：%1（详细信息见日志）</translation>
    </message>
    <message>
        <source>No workspace open</source>
        <translation>未打开工作区</translation>
    </message>
    <message>
        <source>The workspace folder: database and screenshots</source>
        <translation>工作区文件夹：数据库和截图</translation>
    </message>
    <message>
        <source>Nobody signed in</source>
        <translation>未登记使用者</translation>
    </message>
    <message>
        <source>Working as %1 (%2); change it in the File menu</source>
        <translation>当前使用者：%1（%2）；可在“文件”菜单中更改</translation>
    </message>
    <message>
        <source>Say who you are in the File menu: edits are refused until then</source>
        <translation>请在“文件”菜单中登记你是谁：在此之前无法修改</translation>
    </message>
    <message numerus="yes">
        <source>%Ln trajectories</source>
        <translation>
            <numerusform>共 %Ln 条轨迹</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 unlabelled · %2 awaiting review</source>
        <translation>%1 条未标注 · %2 条待审核</translation>
    </message>
</context>
</TS>
