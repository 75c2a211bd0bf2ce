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
