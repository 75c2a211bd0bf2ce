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
        <source>Acce&amp;pt Step and Go On</source>
        <translation>接受本步并继续(&amp;P)</translation>
    </message>
    <message>
        <source>Mark the step correct, keep what was collected in its empty stages, and open the next step that needs work</source>
        <translation>标记本步正确，空着的阶段保留采集内容，并打开下一个需要处理的步骤</translation>
    </message>
    <message>
        <source>Take the Offered Action &amp;Text</source>
        <translation>采用建议的动作文本(&amp;T)</translation>
    </message>
    <message>
        <source>After the point moved to another element: use the action text that names it</source>
        <translation>点移到另一个元素后：使用以该元素命名的动作文本</translation>
    </message>
    <message>
        <source>Take the Model&apos;s Dra&amp;ft</source>
        <translation>采用模型草稿(&amp;F)</translation>
    </message>
    <message>
        <source>Fill the step&apos;s empty stages from the model&apos;s draft (shown dimmed)</source>
        <translation>用模型草稿（淡色显示）填入本步空着的阶段</translation>
    </message>
    <message>
        <source>Draft Labels with a &amp;Model…</source>
        <translation>用模型生成标注草稿(&amp;M)…</translation>
    </message>
    <message>
        <source>Ask a model for drafts of this trajectory&apos;s unlabelled steps</source>
        <translation>请模型为这条轨迹中未标注的步骤生成草稿</translation>
    </message>
    <message>
        <source>&amp;Previous Step</source>
        <translation>上一步(&amp;P)</translation>
    </message>
    <message>
        <source>Show the step before this one; what you typed is saved first</source>
        <translation>显示上一步；已输入的内容会先保存</translation>
    </message>
    <message>
        <source>&amp;Next Step</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>Show the step after this one; what you typed is saved first</source>
        <translation>显示下一步；已输入的内容会先保存</translation>
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
        <source>Pre&amp;vious Trajectory</source>
        <translation>上一条轨迹(&amp;V)</translation>
    </message>
    <message>
        <source>Open again the trajectory you had open before this one</source>
        <translation>重新打开在这条之前打开的轨迹</translation>
    </message>
    <message>
        <source>Step Is &amp;Correct</source>
        <translation>步骤正确(&amp;C)</translation>
    </message>
    <message>
        <source>The collected step did the right thing</source>
        <translation>采集的这一步操作正确</translation>
    </message>
    <message>
        <source>Step Is &amp;Wrong</source>
        <translation>步骤错误(&amp;W)</translation>
    </message>
    <message>
        <source>The collected step did the wrong thing: correct its labels, or insert a corrected step</source>
        <translation>采集的这一步操作错误：修改它的标注，或插入一个更正步骤</translation>
    </message>
    <message>
        <source>Step Is Re&amp;dundant</source>
        <translation>步骤冗余(&amp;D)</translation>
    </message>
    <message>
        <source>The step was not needed for the task</source>
        <translation>完成任务不需要这一步</translation>
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
        <source>Take back the last saved change of this trajectory</source>
        <translation>撤销这条轨迹最近一次保存的修改</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Make the change you took back again</source>
        <translation>重新做一遍刚撤销的修改</translation>
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
        <source>Take the Suggested &amp;Box</source>
        <translation>采用建议框(&amp;B)</translation>
    </message>
    <message>
        <source>Use the dashed blue box (the element under the point) as the step&apos;s target box</source>
        <translation>把蓝色虚线框（点下的元素）用作此步的目标框</translation>
    </message>
    <message>
        <source>No Target Bo&amp;x</source>
        <translation>无目标框(&amp;X)</translation>
    </message>
    <message>
        <source>This step has no target box: clear it and the suggestion</source>
        <translation>此步没有目标框：清除目标框和建议框</translation>
    </message>
    <message>
        <source>Mark Privac&amp;y Regions</source>
        <translation>标记隐私区域(&amp;Y)</translation>
    </message>
    <message>
        <source>Drag on the screenshot over personal data (names, numbers, faces): exports blur or black it out; P again ends it</source>
        <translation>在截图上拖动框住个人信息（姓名、号码、人脸）：导出时将其模糊或涂黑；再按 P 结束</translation>
    </message>
    <message>
        <source>Delete Privacy Re&amp;gion</source>
        <translation>删除隐私区域(&amp;G)</translation>
    </message>
    <message>
        <source>Remove the privacy region you selected on the screenshot</source>
        <translation>删除在截图上选中的隐私区域</translation>
    </message>
    <message>
        <source>C&amp;lear Privacy Regions</source>
        <translation>清除隐私区域(&amp;L)</translation>
    </message>
    <message>
        <source>Remove every privacy region of this step</source>
        <translation>删除本步骤的全部隐私区域</translation>
    </message>
    <message>
        <source>Task &amp;Completed</source>
        <translation>任务已完成(&amp;C)</translation>
    </message>
    <message>
        <source>The trajectory achieves its instruction</source>
        <translation>这条轨迹完成了它的指令</translation>
    </message>
    <message>
        <source>Task &amp;Not Completed</source>
        <translation>任务未完成(&amp;N)</translation>
    </message>
    <message>
        <source>The trajectory does not achieve its instruction</source>
        <translation>这条轨迹没有完成它的指令</translation>
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
        <source>Task Completed, Su&amp;bmit</source>
        <translation>任务已完成并提交(&amp;B)</translation>
    </message>
    <message>
        <source>Set the outcome to completed and submit the trajectory for review</source>
        <translation>把结果设为已完成，并提交轨迹审核</translation>
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
        <source>Enlarge the screenshot</source>
        <translation>放大截图</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>Shrink the screenshot</source>
        <translation>缩小截图</translation>
    </message>
    <message>
        <source>&amp;Fit Screenshot</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>Show the whole screenshot</source>
        <translation>显示完整截图</translation>
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
        <source>Count everything in the workspace again</source>
        <translation>重新统计工作区中的全部数据</translation>
    </message>
    <message>
        <source>Export Charts as &amp;PNG…</source>
        <translation>导出图表为 PNG(&amp;P)…</translation>
    </message>
    <message>
        <source>Save each chart as a PNG file in a folder you choose</source>
        <translation>把每张图表保存为 PNG 文件，放到你选择的文件夹</translation>
    </message>
    <message>
        <source>Export Statistics as &amp;CSV…</source>
        <translation>导出统计为 CSV(&amp;C)…</translation>
    </message>
    <message>
        <source>Save each table as a CSV file in a folder you choose</source>
        <translation>把每个表格保存为 CSV 文件，放到你选择的文件夹</translation>
    </message>
    <message>
        <source>Refresh &amp;Evaluations</source>
        <translation>刷新评测(&amp;E)</translation>
    </message>
    <message>
        <source>Read the evaluations of models again (F5 in the Models view)</source>
        <translation>重新读取模型评测（在“模型”视图中按 F5）</translation>
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
    <name>AgentForm</name>
    <message>
        <source>Agent run</source>
        <translation>智能体运行</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>端点：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>API key env:</source>
        <translation>API 密钥环境变量：</translation>
    </message>
    <message>
        <source>Runs:</source>
        <translation>运行次数：</translation>
    </message>
    <message>
        <source>OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1</source>
        <translation>OpenAI 兼容的基础 URL，例如 http://127.0.0.1:8000/v1</translation>
    </message>
    <message>
        <source>Model name, e.g. qwen2.5-vl-7b</source>
        <translation>模型名称，例如 qwen2.5-vl-7b</translation>
    </message>
    <message>
        <source>The environment variable that holds the API key (optional for local servers)</source>
        <translation>保存 API 密钥的环境变量（本地服务器可不填）</translation>
    </message>
    <message>
        <source>How many trajectories to record for the instruction, one after another</source>
        <translation>为该指令依次录制多少条轨迹</translation>
    </message>
    <message>
        <source>Start the scripted demo endpoint</source>
        <translation>启动脚本化演示端点</translation>
    </message>
    <message>
        <source>A built-in agent for the virtual phone&apos;s instructions, served on this computer</source>
        <translation>内置智能体，可完成虚拟手机的指令，在本机提供服务</translation>
    </message>
    <message>
        <source>Start agent run</source>
        <translation>开始智能体运行</translation>
    </message>
    <message>
        <source>On several phones…</source>
        <translation>在多台手机上…</translation>
    </message>
    <message>
        <source>Run the agent on several phones at once, the runs dealt to whichever is free</source>
        <translation>在多台手机上同时运行智能体，每次运行分给空闲的手机</translation>
    </message>
</context>
<context>
    <name>AnnotationCommands</name>
    <message>
        <source>Step %1 is correct.</source>
        <translation>第 %1 步正确。</translation>
    </message>
    <message>
        <source>Step %1 is wrong: Ctrl+I inserts the step that should have been taken.</source>
        <translation>第 %1 步错误：按 Ctrl+I 插入本应执行的步骤。</translation>
    </message>
    <message>
        <source>Step %1 is redundant: Ctrl+Shift+Delete leaves it out.</source>
        <translation>第 %1 步冗余：按 Ctrl+Shift+Delete 将其移出。</translation>
    </message>
    <message>
        <source>Keeping the original</source>
        <translation>保留原始内容</translation>
    </message>
    <message>
        <source>Nothing to keep: every stage with an original is labelled.</source>
        <translation>无需保留：有原始内容的阶段都已标注。</translation>
    </message>
    <message>
        <source>think</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Kept the original %1 of step %2.</source>
        <translation>已保留第 %2 步原始的%1。</translation>
    </message>
    <message>
        <source>A corrected step follows a collected step; this one was inserted.</source>
        <translation>更正步骤只能插在采集的步骤之后；当前步骤是插入的步骤。</translation>
    </message>
    <message>
        <source>Inserting a corrected step</source>
        <translation>插入更正步骤</translation>
    </message>
    <message>
        <source>Inserted step %1: label what should have been done on this screen.</source>
        <translation>已插入第 %1 步：请标注在此界面上本应执行的操作。</translation>
    </message>
    <message>
        <source>Removing the step</source>
        <translation>移除步骤</translation>
    </message>
    <message>
        <source>Step %1 is left out of the labelled trajectory; the collected record stays.</source>
        <translation>第 %1 步已移出标注轨迹；采集的原始记录仍保留。</translation>
    </message>
    <message>
        <source>Step %1 is back in the labelled trajectory.</source>
        <translation>第 %1 步已恢复到标注轨迹中。</translation>
    </message>
    <message>
        <source>Undoing</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redoing</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Nothing to undo.</source>
        <translation>没有可撤销的操作。</translation>
    </message>
    <message>
        <source>Nothing to redo.</source>
        <translation>没有可重做的操作。</translation>
    </message>
    <message>
        <source>Undid the outcome.</source>
        <translation>已撤销任务结果的更改。</translation>
    </message>
    <message>
        <source>Redid the outcome.</source>
        <translation>已重做任务结果的更改。</translation>
    </message>
    <message>
        <source>Undid a change of step %1.</source>
        <translation>已撤销第 %1 步的一次更改。</translation>
    </message>
    <message>
        <source>Redid a change of step %1.</source>
        <translation>已重做第 %1 步的一次更改。</translation>
    </message>
    <message>
        <source>Saving the outcome</source>
        <translation>保存任务结果</translation>
    </message>
    <message>
        <source>Submitting for review</source>
        <translation>提交审核</translation>
    </message>
    <message>
        <source>Submitted for review.</source>
        <translation>已提交审核。</translation>
    </message>
    <message>
        <source>The outcome is not set.</source>
        <translation>尚未标记任务是否完成。</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) have no verdict.</source>
        <translation>
            <numerusform>%n 个步骤尚无判定。</numerusform>
        </translation>
    </message>
    <message>
        <source>No target box on step %1: their clicks are scored by distance only.</source>
        <translation>第 %1 步没有目标框：其点击只按距离评分。</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>The outcome (task completed or not) is not set.</source>
        <translation>尚未设置结果（任务是否完成）。</translation>
    </message>
    <message>
        <source>Not ready for review</source>
        <translation>尚不能提交审核</translation>
    </message>
    <message>
        <source>This trajectory is not finished. What is missing:</source>
        <translation>这条轨迹还没有标完，缺少：</translation>
    </message>
    <message>
        <source>Submit Anyway</source>
        <translation>仍然提交</translation>
    </message>
    <message>
        <source>Not submitted: finish the steps listed, then submit again.</source>
        <translation>未提交：请补完列出的步骤后再提交。</translation>
    </message>
    <message>
        <source>Open a workspace first.</source>
        <translation>请先打开工作区。</translation>
    </message>
    <message>
        <source>Finding your next trajectory</source>
        <translation>查找下一条轨迹</translation>
    </message>
    <message>
        <source>No trajectory was opened before this one.</source>
        <translation>在这条之前没有打开过其他轨迹。</translation>
    </message>
    <message>
        <source>Your queue is empty: nothing else to label.</source>
        <translation>你的队列已空：没有其他待标注的轨迹。</translation>
    </message>
    <message>
        <source>Rejected, to fix: %1</source>
        <translation>被驳回，需修改：%1</translation>
    </message>
    <message>
        <source>Reading the history</source>
        <translation>读取修改历史</translation>
    </message>
    <message>
        <source>Restoring a value from the history</source>
        <translation>从历史恢复取值</translation>
    </message>
    <message>
        <source>Restored the value from the history (Ctrl+Z takes it back).</source>
        <translation>已从历史恢复该值（按 Ctrl+Z 可撤回）。</translation>
    </message>
</context>
<context>
    <name>AnnotationView</name>
    <message>
        <source>Some edits are still being saved.</source>
        <translation>部分修改仍在保存中。</translation>
    </message>
    <message>
        <source>Open a workspace first.</source>
        <translation>请先打开工作区。</translation>
    </message>
    <message>
        <source>Opening trajectory %1</source>
        <translation>打开轨迹 %1</translation>
    </message>
    <message>
        <source>Reading the screen&apos;s elements</source>
        <translation>读取界面元素</translation>
    </message>
    <message>
        <source>Not saved: %1. Your edit is kept and saved again with your next change.</source>
        <translation>未保存：%1。你的修改仍保留，会在下一次修改时再次保存。</translation>
    </message>
    <message>
        <source>Open a trajectory first.</source>
        <translation>请先打开一条轨迹。</translation>
    </message>
    <message>
        <source>The workspace is open read-only: labels cannot be changed here.</source>
        <translation>工作区以只读方式打开：此处无法修改标注。</translation>
    </message>
    <message>
        <source>Say who you are first (File › Who Is Working…): every label is saved under a name.</source>
        <translation>请先说明你是谁（文件 › 当前使用者…）：每条标注都以姓名保存。</translation>
    </message>
    <message>
        <source>Click: the point · Drag: the target box · Ctrl+click: an element (box and centre) · Wheel: zoom</source>
        <translation>单击：设定坐标 · 拖动：目标框 · Ctrl+单击：选取元素（边框和中心） · 滚轮：缩放</translation>
    </message>
</context>
<context>
    <name>AnswerDetail</name>
    <message>
        <source>%1 left out by the cap of %2 (greyed)</source>
        <translation>上限为 %2 张，略去 %1 张（灰色）</translation>
    </message>
    <message numerus="yes">
        <source>%n screenshot(s) sent</source>
        <translation>
            <numerusform>发送了 %n 张截图</numerusform>
        </translation>
    </message>
    <message>
        <source>(The judge gave no reason.)</source>
        <translation>（评判模型没有给出理由。）</translation>
    </message>
    <message>
        <source>&lt;b&gt;#%1&lt;/b&gt; · %2 · %3 — &lt;b&gt;%4&lt;/b&gt; from judge %5 (%6)</source>
        <translation>&lt;b&gt;#%1&lt;/b&gt; · %2 · %3 — 评判模型 %5（%6）：&lt;b&gt;%4&lt;/b&gt;</translation>
    </message>
    <message>
        <source>After step %1</source>
        <translation>第 %1 步之后</translation>
    </message>
    <message>
        <source>After step %1 (the last)</source>
        <translation>第 %1 步之后（最后一步）</translation>
    </message>
    <message>
        <source>Before the first step</source>
        <translation>第一步之前</translation>
    </message>
    <message>
        <source>Initial screen</source>
        <translation>初始界面</translation>
    </message>
    <message>
        <source>Left out by the judge&apos;s image cap: the first and the last screens are kept</source>
        <translation>因评判模型的截图上限而略去：只保留最前和最后的界面</translation>
    </message>
    <message>
        <source>Loading a screenshot</source>
        <translation>读取截图</translation>
    </message>
    <message>
        <source>Loading the screenshot…</source>
        <translation>正在读取截图…</translation>
    </message>
    <message>
        <source>No usable score: %1</source>
        <translation>没有可用的分数：%1</translation>
    </message>
    <message>
        <source>Sent at %1×%2 pixels</source>
        <translation>以 %1×%2 像素发送</translation>
    </message>
    <message>
        <source>Step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>The judge was shown no screenshot.</source>
        <translation>评判模型没有看到任何截图。</translation>
    </message>
    <message>
        <source>no usable score</source>
        <translation>没有可用的分数</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>未发送</translation>
    </message>
    <message>
        <source>score %1 of 4</source>
        <translation>%1 分（满分 4 分）</translation>
    </message>
    <message>
        <source>score hidden</source>
        <translation>分数已隐藏</translation>
    </message>
</context>
<context>
    <name>AnswersTable</name>
    <message>
        <source>No usable score: %1</source>
        <translation>没有可用的分数：%1</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>已隐藏</translation>
    </message>
</context>
<context>
    <name>BlindSteps</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Loading the screenshot…</source>
        <translation>正在读取截图…</translation>
    </message>
    <message>
        <source>Loading a screenshot</source>
        <translation>读取截图</translation>
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
    <message>
        <source>Reading which judge scores you may see</source>
        <translation>读取你可以看到的评判分数</translation>
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
    <message numerus="yes">
        <source>(without the judge results of %n trajectory(s) in a study still being rated)</source>
        <translation>
            <numerusform>（不含仍在评分的研究中 %n 条轨迹的评判结果）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CollectView</name>
    <message>
        <source>Looking for phones</source>
        <translation>正在查找手机</translation>
    </message>
    <message>
        <source>Recording: act on the screen; end with Task done or Task failed.</source>
        <translation>正在录制：在屏幕上操作；用“任务完成”或“任务失败”结束。</translation>
    </message>
    <message>
        <source>Enter the endpoint URL and the model first, or start the scripted demo endpoint.</source>
        <translation>请先填写端点 URL 和模型，或启动脚本化演示端点。</translation>
    </message>
    <message>
        <source>For several phones: choose the instruction, enter the endpoint and the model, and end the running session.</source>
        <translation>多台手机运行前：请选择指令，填写端点和模型，并结束正在进行的会话。</translation>
    </message>
    <message>
        <source>Nothing is running.</source>
        <translation>当前没有正在运行的会话。</translation>
    </message>
    <message numerus="yes">
        <source>A virtual phone runs on 127.0.0.1:%1; its %n instruction(s) are in the task list.</source>
        <translation>
            <numerusform>虚拟手机运行在 127.0.0.1:%1；它的 %n 条指令已加入任务列表。</numerusform>
        </translation>
    </message>
    <message>
        <source>The scripted demo endpoint answers at %1.</source>
        <translation>脚本化演示端点地址：%1。</translation>
    </message>
    <message>
        <source>A session is running; stop it first.</source>
        <translation>有会话正在运行，请先停止。</translation>
    </message>
    <message>
        <source>Open a workspace first: recorded steps are saved in it.</source>
        <translation>请先打开工作区：录制的步骤保存在其中。</translation>
    </message>
    <message>
        <source>Choose a connected phone first (or start a virtual phone).</source>
        <translation>请先选择一台已连接的手机（或启动虚拟手机）。</translation>
    </message>
    <message>
        <source>Choose an app and an instruction, or write one.</source>
        <translation>请选择应用和指令，或自己写一条指令。</translation>
    </message>
    <message>
        <source>The session could not go on: %1</source>
        <translation>会话无法继续：%1</translation>
    </message>
    <message>
        <source>The phone cannot do that on this screen: %1</source>
        <translation>手机在此界面上无法执行该操作：%1</translation>
    </message>
    <message>
        <source>Enter the agent&apos;s endpoint and model to resume its run.</source>
        <translation>请填写智能体的端点和模型以继续其运行。</translation>
    </message>
    <message>
        <source>Reconnect the phone, refresh the device list and choose it to resume.</source>
        <translation>请重新连接手机，刷新设备列表并选中它后继续。</translation>
    </message>
    <message numerus="yes">
        <source>Trajectory %1 is closed with its %n step(s).</source>
        <translation>
            <numerusform>轨迹 %1 已关闭，保留 %n 步。</numerusform>
        </translation>
    </message>
    <message>
        <source>Closing the trajectory</source>
        <translation>正在关闭轨迹</translation>
    </message>
    <message>
        <source>The agent is acting; stop it to take over.</source>
        <translation>智能体正在操作；先停止它才能接管。</translation>
    </message>
    <message>
        <source>Nothing is being recorded: start a recording first.</source>
        <translation>当前没有在录制：请先开始录制。</translation>
    </message>
    <message>
        <source>Loading instructions</source>
        <translation>正在加载指令</translation>
    </message>
    <message>
        <source>No phone chosen. Connect one with USB debugging on, or start a virtual phone.</source>
        <translation>未选择手机。请连接一台已开启 USB 调试的手机，或启动虚拟手机。</translation>
    </message>
    <message>
        <source>The phone %1 cannot be used now (%2).</source>
        <translation>手机 %1 当前无法使用（%2）。</translation>
    </message>
    <message>
        <source>Waiting for the phone&apos;s screen…</source>
        <translation>正在等待手机画面…</translation>
    </message>
</context>
<context>
    <name>CompareChoice</name>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
</context>
<context>
    <name>ComparisonPage</name>
    <message>
        <source>Difference</source>
        <translation>差值</translation>
    </message>
    <message>
        <source>Second minus first, in percentage points</source>
        <translation>第二个减第一个，单位为百分点</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
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
        <source>fixed</source>
        <translation>变对</translation>
    </message>
    <message>
        <source>broken</source>
        <translation>变错</translation>
    </message>
    <message>
        <source>Select two evaluations (Ctrl+click) or choose one under “Compare with” to compare them.</source>
        <translation>选择两个评测（Ctrl+单击），或在“对比”中选一个，即可对比。</translation>
    </message>
    <message>
        <source>#%1 %2 against #%3 %4 on the %5 steps both answered</source>
        <translation>#%1 %2 与 #%3 %4 对比，基于两者都回答的 %5 步</translation>
    </message>
    <message>
        <source>%1 answered only by the first, %2 only by the second</source>
        <translation>%1 步只有第一个回答，%2 步只有第二个回答</translation>
    </message>
    <message>
        <source>Steps that changed: %1 fixed, %2 broken (double-click one to see the wrong answer)</source>
        <translation>结果变化的步骤：%1 步变对，%2 步变错（双击查看答错的那个回答）</translation>
    </message>
</context>
<context>
    <name>DemoLoopBar</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the demo&apos;s training loop; opening the demo again goes on</source>
        <translation>停止演示的训练流程；再次打开演示时会接着进行</translation>
    </message>
    <message>
        <source>Demo: starting the training loop…</source>
        <translation>演示：正在启动训练流程…</translation>
    </message>
    <message>
        <source>Demo: cancelling the training loop…</source>
        <translation>演示：正在取消训练流程…</translation>
    </message>
    <message>
        <source>Demo: training loop cancelled; opening the demo again goes on.</source>
        <translation>演示：训练流程已取消；再次打开演示时会接着进行。</translation>
    </message>
    <message>
        <source>Demo: exported; to train and evaluate, install the training packages: pip install &apos;mobile-annotator[train]&apos;</source>
        <translation>演示：已导出；要训练和评估，请安装训练所需的包：pip install &apos;mobile-annotator[train]&apos;</translation>
    </message>
    <message>
        <source>Demo: the training loop failed: %1</source>
        <translation>演示：训练流程失败：%1</translation>
    </message>
    <message>
        <source>The demo closes the loop: it exports the accepted trajectories, trains tiny-sft, then tiny-grpo, evaluates the untrained model and both results on the trained steps, and runs the trained agent on a virtual phone. Commands and their output: %1</source>
        <translation>演示会走完整个流程：导出已通过的轨迹，训练 tiny-sft，再训练 tiny-grpo，在训练用的步骤上评估未训练的模型和两次训练的结果，然后在虚拟手机上运行训练好的模型。命令及其输出：%1</translation>
    </message>
    <message>
        <source>Demo: loop closed in %1 s; see the Runs and Models views. The tiny model memorises the steps and tasks it was trained on; it does not generalise to others.</source>
        <translation>演示：流程已完成，用时 %1 秒；请查看“训练”和“模型”视图。这个很小的模型只是记住了训练用的步骤和任务，不能用于其他任务。</translation>
    </message>
    <message>
        <source>Demo: %1 (%2/%3)…</source>
        <translation>演示：%1（%2/%3）…</translation>
    </message>
    <message>
        <source>Demo: %1 (%2/%3), %4 of %5 steps…</source>
        <translation>演示：%1（%2/%3），已评估 %4/%5 步…</translation>
    </message>
    <message>
        <source>Demo: %1 (%2/%3), %4 of %5 tasks…</source>
        <translation>演示：%1（%2/%3），已完成 %4/%5 个任务…</translation>
    </message>
    <message>
        <source>Demo: %1 (%2/%3), step %4 of %5…</source>
        <translation>演示：%1（%2/%3），第 %4/%5 步…</translation>
    </message>
    <message>
        <source>exporting the accepted trajectories</source>
        <translation>正在导出已通过的轨迹</translation>
    </message>
    <message>
        <source>training tiny-sft</source>
        <translation>正在训练 tiny-sft</translation>
    </message>
    <message>
        <source>training tiny-grpo</source>
        <translation>正在训练 tiny-grpo</translation>
    </message>
    <message>
        <source>evaluating the models</source>
        <translation>正在评估模型</translation>
    </message>
    <message>
        <source>running the trained agent on a virtual phone</source>
        <translation>正在虚拟手机上运行训练好的模型</translation>
    </message>
</context>
<context>
    <name>DemoPeers</name>
    <message>
        <source>Starting a virtual phone</source>
        <translation>正在启动虚拟手机</translation>
    </message>
    <message>
        <source>Starting the scripted demo endpoint</source>
        <translation>正在启动脚本化演示端点</translation>
    </message>
</context>
<context>
    <name>DeviceList</name>
    <message>
        <source>adb server 127.0.0.1:%1</source>
        <translation>adb 服务器 127.0.0.1:%1</translation>
    </message>
    <message>
        <source>in this app</source>
        <translation>本应用内</translation>
    </message>
    <message>
        <source>adb port %1</source>
        <translation>adb 端口 %1</translation>
    </message>
    <message>
        <source>%1 · Android %2</source>
        <translation>%1 · Android %2</translation>
    </message>
    <message>
        <source>unauthorized: allow USB debugging on the phone</source>
        <translation>未授权：请在手机上允许 USB 调试</translation>
    </message>
    <message>
        <source>offline: reconnect it</source>
        <translation>离线：请重新连接</translation>
    </message>
    <message>
        <source>authorizing…</source>
        <translation>正在授权…</translation>
    </message>
</context>
<context>
    <name>DevicePanel</name>
    <message>
        <source>Virtual phone on port %1</source>
        <translation>虚拟手机（端口 %1）</translation>
    </message>
    <message>
        <source>Starting the virtual phone…</source>
        <translation>正在启动虚拟手机…</translation>
    </message>
    <message>
        <source>Start a virtual phone</source>
        <translation>启动虚拟手机</translation>
    </message>
    <message>
        <source>No adb server answers on port %1. Start one (adb start-server), set its port here, or start a virtual phone.</source>
        <translation>端口 %1 上没有 adb 服务器响应。请启动一个（adb start-server）、在此设置它的端口，或启动虚拟手机。</translation>
    </message>
    <message>
        <source>Phones on USB or Wi-Fi: no adb server answers on port %1. Start one (adb start-server).</source>
        <translation>USB 或 Wi-Fi 连接的手机：端口 %1 上没有 adb 服务器响应。请启动一个（adb start-server）。</translation>
    </message>
    <message>
        <source>Phones</source>
        <translation>手机</translation>
    </message>
    <message>
        <source>adb port:</source>
        <translation>adb 端口：</translation>
    </message>
    <message>
        <source>The adb server to ask for phones (5037 is adb&apos;s own; `annotator virtual-phone serve` prints its port)</source>
        <translation>用于查找手机的 adb 服务器（5037 是 adb 自己的端口；`annotator virtual-phone serve` 会打印它的端口）</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Look again for connected phones and virtual phones</source>
        <translation>重新查找已连接的手机和虚拟手机</translation>
    </message>
    <message>
        <source>Serve the built-in virtual phone from this app and add its instructions: try collecting without a phone</source>
        <translation>由本应用提供内置虚拟手机并添加它的指令：无需真机即可试用采集</translation>
    </message>
</context>
<context>
    <name>DisconnectBanner</name>
    <message>
        <source>The phone %1 is disconnected. Reconnect it, then refresh the device list.</source>
        <translation>手机 %1 已断开连接。请重新连接，然后刷新设备列表。</translation>
    </message>
    <message numerus="yes">
        <source>The phone %1 is disconnected. The trajectory so far (%n step(s)) is saved; reconnect and resume, or close it.</source>
        <translation>
            <numerusform>手机 %1 已断开连接。目前的轨迹（%n 步）已保存；请重新连接后继续，或将其关闭。</numerusform>
        </translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Go on with the trajectory on the chosen phone, from its current screen</source>
        <translation>在所选手机上从当前画面继续这条轨迹</translation>
    </message>
    <message>
        <source>Close it</source>
        <translation>关闭轨迹</translation>
    </message>
    <message>
        <source>Keep the trajectory as it is, interrupted, and stop offering to resume it</source>
        <translation>按原样保留这条已中断的轨迹，不再提示继续</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
</context>
<context>
    <name>DraftEndpointDialog</name>
    <message>
        <source>Draft Labels with a Model</source>
        <translation>用模型生成标注草稿</translation>
    </message>
    <message>
        <source>OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1</source>
        <translation>兼容 OpenAI 的基础 URL，例如 http://127.0.0.1:8000/v1</translation>
    </message>
    <message>
        <source>Each unlabelled step of this trajectory is sent with its screenshot and a short description of its screen&apos;s elements. A draft is offered only when its action matches the one executed; it stays a suggestion until you take it.</source>
        <translation>这条轨迹中每个未标注的步骤都会连同截图和屏幕元素的简短描述一起发送。只有当草稿的动作与实际执行的动作一致时才会提供；在你采用之前，它只是建议。</translation>
    </message>
    <message>
        <source>Endpoint:</source>
        <translation>端点：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>API key env:</source>
        <translation>API 密钥环境变量：</translation>
    </message>
    <message>
        <source>Requests at once:</source>
        <translation>同时请求数：</translation>
    </message>
</context>
<context>
    <name>EvaluatedStep</name>
    <message>
        <source>Loading the step…</source>
        <translation>正在读取该步骤…</translation>
    </message>
    <message>
        <source>Choose a step to see it on its screenshot.</source>
        <translation>选择一个步骤，在截图上查看。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Trajectory #%1 · step %2&lt;/b&gt; · %3 — %4</source>
        <translation>&lt;b&gt;轨迹 #%1 · 第 %2 步&lt;/b&gt; · %3 — %4</translation>
    </message>
    <message>
        <source>The request failed: %1</source>
        <translation>请求失败：%1</translation>
    </message>
    <message>
        <source>no usable action</source>
        <translation>无可用动作</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Predicted: %1</source>
        <translation>预测：%1</translation>
    </message>
    <message>
        <source>Labelled: %1</source>
        <translation>标注：%1</translation>
    </message>
    <message>
        <source>Target box of the labelled action</source>
        <translation>标注动作的目标框</translation>
    </message>
    <message>
        <source>right</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>Verdict: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>结论：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>format %1, type %2, arguments %3, point within 14%: %4</source>
        <translation>格式%1，类型%2，参数%3，点在 14% 以内：%4</translation>
    </message>
    <message>
        <source>The model&apos;s reply</source>
        <translation>模型的回复</translation>
    </message>
    <message>
        <source>Open the Trajectory in Annotate</source>
        <translation>在标注视图中打开轨迹</translation>
    </message>
    <message>
        <source>Check or correct this step&apos;s label in the Annotate view</source>
        <translation>在标注视图中检查或修改该步骤的标注</translation>
    </message>
</context>
<context>
    <name>EvaluationSummary</name>
    <message>
        <source>95% of resampled sets of trajectories (cluster bootstrap) fall in this range</source>
        <translation>按轨迹重采样（聚类自助法）时，95% 的结果落在此区间内</translation>
    </message>
    <message>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>95% interval</source>
        <translation>95% 区间</translation>
    </message>
    <message>
        <source>Counted over</source>
        <translation>统计范围</translation>
    </message>
    <message>
        <source>asked at the %1 level</source>
        <translation>按 %1 级指令提问</translation>
    </message>
    <message>
        <source>%1 answered, %2 failed requests</source>
        <translation>%1 个已回答，%2 个请求失败</translation>
    </message>
    <message>
        <source>started %1, finished %2</source>
        <translation>开始于 %1，结束于 %2</translation>
    </message>
    <message>
        <source>Coordinates %1 · prompt %2 · temperature %3 · samples per step %4</source>
        <translation>坐标 %1 · 提示词 %2 · 温度 %3 · 每步采样 %4 次</translation>
    </message>
    <message>
        <source>No summary yet: the evaluation is still running, or it ended before summing up.</source>
        <translation>尚无汇总：评测仍在运行，或在汇总前已结束。</translation>
    </message>
    <message>
        <source>None of the %1 replies was in the answer format, so every figure is a measured 0%: the model has not learnt the format yet.</source>
        <translation>%1 条回复没有一条符合答案格式，所以每个指标都是实测的 0%：模型还没有学会这个格式。</translation>
    </message>
    <message>
        <source>Argument errors (Avg Err.)</source>
        <translation>参数错误（Avg Err.）</translation>
    </message>
    <message>
        <source>Format errors</source>
        <translation>格式错误</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行次数</translation>
    </message>
    <message>
        <source>Mean steps per run</source>
        <translation>每次运行的平均步数</translation>
    </message>
    <message>
        <source>Runs that did not end</source>
        <translation>未结束的运行</translation>
    </message>
    <message>
        <source>pass@%1 (step accuracy)</source>
        <translation>pass@%1（步骤准确率）</translation>
    </message>
    <message numerus="yes">
        <source>%n checked run(s)</source>
        <translation>
            <numerusform>%n 次已核查的运行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trajectory(s)</source>
        <translation>
            <numerusform>%n 条轨迹</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) with a point</source>
        <translation>
            <numerusform>%n 个带点的步骤</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>Mean steps</source>
        <translation>平均步数</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>轨迹数</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Arg. errors</source>
        <translation>参数错误</translation>
    </message>
    <message>
        <source>Steps with the right type but a wrong argument</source>
        <translation>动作类型正确但参数错误的步骤</translation>
    </message>
    <message>
        <source>App</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Seen apps</source>
        <translation>训练中见过的应用</translation>
    </message>
    <message>
        <source>Unseen apps</source>
        <translation>训练中未见过的应用</translation>
    </message>
    <message>
        <source>Headline figures (each step&apos;s first answer)</source>
        <translation>主要指标（每步的第一个回答）</translation>
    </message>
    <message>
        <source>Per app</source>
        <translation>按应用</translation>
    </message>
</context>
<context>
    <name>FailedStepsPage</name>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>The answer&apos;s tool call, in device pixels</source>
        <translation>回答的工具调用，单位为设备像素</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
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
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>An online evaluation runs whole tasks on phones: it has runs, not steps to list here.</source>
        <translation>在线评测在手机上完整执行任务：它记录的是运行，没有可在此列出的步骤。</translation>
    </message>
    <message>
        <source>No failed step: every first answer was right (%1 steps).</source>
        <translation>没有答错的步骤：每步的第一个回答都正确（共 %1 步）。</translation>
    </message>
    <message numerus="yes">
        <source>%n failed step(s)</source>
        <translation>
            <numerusform>%n 个答错的步骤</numerusform>
        </translation>
    </message>
    <message>
        <source>double-click one or press Enter to see it on its screenshot</source>
        <translation>双击或按回车键，在截图上查看</translation>
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
    <message>
        <source>Any judge score</source>
        <translation>任意评判分数</translation>
    </message>
    <message>
        <source>Judge score %1</source>
        <translation>评判分数 %1</translation>
    </message>
    <message>
        <source>No judge has scored anything yet</source>
        <translation>还没有评判模型打过分</translation>
    </message>
    <message>
        <source>Not scored by the judge</source>
        <translation>评判模型未打分</translation>
    </message>
    <message>
        <source>Scores of judge %1 (%2), the newest; a score hidden from you matches no score</source>
        <translation>最新的评判模型 %1（%2）的分数；对你隐藏的分数不符合任何分数筛选</translation>
    </message>
</context>
<context>
    <name>FleetChoice</name>
    <message>
        <source>Phones and runs</source>
        <translation>手机与运行</translation>
    </message>
    <message>
        <source>Phones:</source>
        <translation>手机：</translation>
    </message>
    <message>
        <source>Instructions:</source>
        <translation>指令：</translation>
    </message>
    <message>
        <source>Runs each:</source>
        <translation>每条运行次数：</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>“%1”</translation>
    </message>
    <message>
        <source>The instruction chosen in the Collect view</source>
        <translation>采集视图中选中的指令</translation>
    </message>
    <message>
        <source>every pending instruction of %1</source>
        <translation>%1 的所有待采集指令</translation>
    </message>
    <message>
        <source>Every active instruction of the app with fewer runs than asked</source>
        <translation>该应用中运行次数尚未达到要求的所有启用指令</translation>
    </message>
    <message>
        <source>Runs of each instruction, dealt to whichever phone is free</source>
        <translation>每条指令的运行次数，分给空闲的手机</translation>
    </message>
</context>
<context>
    <name>FleetDialog</name>
    <message>
        <source>Running on %1 phones…</source>
        <translation>正在 %1 台手机上运行…</translation>
    </message>
    <message>
        <source>Stopping: each phone ends after its current step…</source>
        <translation>正在停止：每台手机完成当前步骤后结束…</translation>
    </message>
    <message>
        <source>%1 runs complete on %2 phones.</source>
        <translation>%2 台手机上完成了 %1 次运行。</translation>
    </message>
    <message>
        <source>Interrupted (resume or close them in the Collect view): %1.</source>
        <translation>已中断（可在采集视图中继续或关闭）：%1。</translation>
    </message>
    <message>
        <source>%1 runs not done.</source>
        <translation>%1 次运行未完成。</translation>
    </message>
    <message>
        <source>Phones lost: %1.</source>
        <translation>失去连接的手机：%1。</translation>
    </message>
    <message>
        <source>Stopped dealing runs: %1</source>
        <translation>已停止分配运行：%1</translation>
    </message>
    <message>
        <source>Could not run: %1</source>
        <translation>无法运行：%1</translation>
    </message>
    <message>
        <source>Agent runs on several phones</source>
        <translation>在多台手机上运行智能体</translation>
    </message>
    <message>
        <source>Start on the chosen phones</source>
        <translation>在选中的手机上开始</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Each phone ends after its current step; nothing recorded is lost</source>
        <translation>每台手机完成当前步骤后结束；已录制的内容不会丢失</translation>
    </message>
    <message>
        <source>Runs are dealt to the phones from one queue; a phone that drops hands its run to the others.</source>
        <translation>运行从同一队列分配给各手机；断开的手机会把它的运行交给其他手机。</translation>
    </message>
</context>
<context>
    <name>HistoryPane</name>
    <message>
        <source>Think</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Target box</source>
        <translation>目标框</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>Privacy regions</source>
        <translation>隐私区域</translation>
    </message>
    <message>
        <source>Task outcome</source>
        <translation>任务结果</translation>
    </message>
    <message>
        <source>Left out</source>
        <translation>移出</translation>
    </message>
    <message>
        <source>Inserted</source>
        <translation>插入</translation>
    </message>
    <message>
        <source>correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>redundant</source>
        <translation>冗余</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>人员</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>修改</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>已移出</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>inserted</source>
        <translation>已插入</translation>
    </message>
    <message>
        <source>task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>%1 changed %2 on %3

Before:
%4

After:
%5</source>
        <translation>%1 于 %3 修改了%2

修改前：
%4

修改后：
%5</translation>
    </message>
    <message>
        <source>Select a change to give its field the value it wrote</source>
        <translation>选择一条修改，把字段恢复为它写入的值</translation>
    </message>
    <message>
        <source>Give the field the value this change wrote (Ctrl+Z takes it back)</source>
        <translation>把字段恢复为这条修改写入的值（Ctrl+Z 可撤销）</translation>
    </message>
    <message>
        <source>The field holds this value now</source>
        <translation>字段当前就是这个值</translation>
    </message>
    <message numerus="yes">
        <source>History: %n change(s)</source>
        <translation>
            <numerusform>历史：%n 处修改</numerusform>
        </translation>
    </message>
    <message>
        <source>History: no changes yet</source>
        <translation>历史：尚无修改</translation>
    </message>
    <message>
        <source>Restore This Value</source>
        <translation>恢复此值</translation>
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
    <message>
        <source>You are connected to a team database with your own login, so the database says who you are and checks what your role allows. You may work in a lower role than the one you were given, never a higher one.</source>
        <translation>你用自己的登录名连接团队数据库，因此由数据库确认你是谁，并检查你的角色允许做什么。你可以以低于所授角色的身份工作，但不能更高。</translation>
    </message>
    <message>
        <source>Once the workspace has an administrator, your role is the one the administrator gave you on its list of people (with the command “annotator people role”); this choice counts only until then. In a workspace file (SQLite) roles are a workflow aid: anyone who can write the file can do anything.</source>
        <translation>工作区一旦有了管理员，你的角色就是管理员在人员名单上给你的角色（用命令“annotator people role”）；此处的选择只在那之前有效。在工作区文件（SQLite）中，角色只是工作流程上的辅助：任何能写入该文件的人都能做任何事。</translation>
    </message>
</context>
<context>
    <name>IdlePhone</name>
    <message>
        <source>Taking a screenshot</source>
        <translation>正在截图</translation>
    </message>
    <message>
        <source>Sending %1 to %2</source>
        <translation>正在向 %2 发送 %1</translation>
    </message>
</context>
<context>
    <name>Jobs</name>
    <message>
        <source>the workspace is open read-only, so nothing was changed: it can be browsed and exported, not edited</source>
        <translation>工作区以只读方式打开，因此没有做任何修改：可以浏览和导出，但不能编辑</translation>
    </message>
</context>
<context>
    <name>JudgeAnswers</name>
    <message>
        <source>App</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Instruction</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>分数</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>轨迹</translation>
    </message>
</context>
<context>
    <name>JudgeLine</name>
    <message numerus="yes">
        <source>%n more judge(s) in the Judge view</source>
        <translation>
            <numerusform>评判视图中另有 %n 个评判模型</numerusform>
        </translation>
    </message>
    <message>
        <source>Judge: &lt;b&gt;%1&lt;/b&gt; of 4 · %2 · %3</source>
        <translation>评判：&lt;b&gt;%1&lt;/b&gt; 分（满分 4 分）· %2 · %3</translation>
    </message>
    <message>
        <source>Judge: &lt;b&gt;hidden&lt;/b&gt; · %1</source>
        <translation>评判：&lt;b&gt;已隐藏&lt;/b&gt; · %1</translation>
    </message>
    <message>
        <source>Judge: no usable score · %1</source>
        <translation>评判：没有可用的分数 · %1</translation>
    </message>
    <message>
        <source>Judge: not judged yet</source>
        <translation>评判：尚未评判</translation>
    </message>
    <message>
        <source>judge %1 (%2)</source>
        <translation>评判模型 %1（%2）</translation>
    </message>
</context>
<context>
    <name>JudgeView</name>
    <message>
        <source>Loading the judges</source>
        <translation>读取评判模型</translation>
    </message>
    <message>
        <source>Open a workspace first.</source>
        <translation>请先打开一个工作区。</translation>
    </message>
    <message>
        <source>Cannot start the run: %1</source>
        <translation>无法开始运行：%1</translation>
    </message>
    <message>
        <source>The judge run started.</source>
        <translation>评判运行已开始。</translation>
    </message>
    <message>
        <source>Running the judge</source>
        <translation>运行评判</translation>
    </message>
    <message>
        <source>Stopping the judge run after the requests in flight…</source>
        <translation>正在等待进行中的请求完成后停止评判运行…</translation>
    </message>
    <message>
        <source>The judge run failed: %1</source>
        <translation>评判运行失败：%1</translation>
    </message>
    <message>
        <source>The run was stopped because the workspace closed; the scores so far are kept.</source>
        <translation>工作区已关闭，运行已停止；已有的评分都已保存。</translation>
    </message>
    <message>
        <source>No workspace open: choose one with File › Open Workspace Folder…</source>
        <translation>未打开工作区：请通过“文件 › 打开工作区文件夹…”选择一个</translation>
    </message>
    <message>
        <source>Loading the judges…</source>
        <translation>正在读取评判模型…</translation>
    </message>
    <message>
        <source>No judge has scored anything yet: fill in the form and press Start.</source>
        <translation>还没有评判模型打过分：填写表单后点击“开始”。</translation>
    </message>
    <message>
        <source>A judge is a prompt, a model and its settings; a run skips what its judge has scored.</source>
        <translation>评判模型 = 提示词 + 模型 + 参数；运行时会跳过该评判模型已评分的轨迹。</translation>
    </message>
    <message>
        <source>Judges of this workspace</source>
        <translation>本工作区的评判模型</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Read the judges and their scores again</source>
        <translation>重新读取评判模型及其评分</translation>
    </message>
    <message numerus="yes">
        <source>%n hidden from you while a study you rate is being rated</source>
        <translation>
            <numerusform>%n 条对你隐藏：你参与评分的研究尚未完成</numerusform>
        </translation>
    </message>
    <message>
        <source>Answers of judge %1: %2</source>
        <translation>评判模型 %1 的回答：%2 条</translation>
    </message>
    <message>
        <source>Choose a judge above to see its answers</source>
        <translation>在上方选择一个评判模型，查看它的回答</translation>
    </message>
    <message>
        <source>Choose a trajectory to see the judge&apos;s reason and the screens it saw.</source>
        <translation>选择一条轨迹，查看评判理由和评判模型看到的界面。</translation>
    </message>
    <message>
        <source>Reading the judge&apos;s answers</source>
        <translation>读取评判模型的回答</translation>
    </message>
    <message>
        <source>Reading the screens the judge saw</source>
        <translation>读取评判模型看到的界面</translation>
    </message>
</context>
<context>
    <name>JudgesTable</name>
    <message>
        <source>Judge</source>
        <translation>评判模型</translation>
    </message>
    <message>
        <source>The judge configuration&apos;s id</source>
        <translation>评判配置的编号</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>种子</translation>
    </message>
    <message>
        <source>Scored</source>
        <translation>已评分</translation>
    </message>
    <message>
        <source>Trajectories with a usable score (0-4) from this judge</source>
        <translation>该评判模型给出有效评分（0-4）的轨迹数</translation>
    </message>
    <message>
        <source>Unusable</source>
        <translation>无效</translation>
    </message>
    <message>
        <source>Answers without a usable score; the next run asks about them again</source>
        <translation>没有有效评分的回答；下次运行会重新询问</translation>
    </message>
    <message>
        <source>Mean score</source>
        <translation>平均分</translation>
    </message>
    <message>
        <source>Mean of the usable scores (0-4)</source>
        <translation>有效评分（0-4）的平均值</translation>
    </message>
    <message>
        <source>Screenshots: longest side %1 px, at most %2 per trajectory</source>
        <translation>截图：长边最多 %1 像素，每条轨迹最多 %2 张</translation>
    </message>
    <message>
        <source>Created %1</source>
        <translation>创建于 %1</translation>
    </message>
</context>
<context>
    <name>LabelGestures</name>
    <message>
        <source>No box to take: draw one, or Ctrl+click an element.</source>
        <translation>没有可采用的框：请拖动画框，或按住 Ctrl 点击元素。</translation>
    </message>
    <message>
        <source>Step %1: took the suggested target box.</source>
        <translation>第 %1 步：已采用建议的目标框。</translation>
    </message>
    <message>
        <source>Step %1 has no target box: none is suggested or exported for it.</source>
        <translation>第 %1 步没有目标框：不再建议，导出时也不带框。</translation>
    </message>
</context>
<context>
    <name>LabelSaver</name>
    <message>
        <source>Reading the label versions</source>
        <translation>读取标注版本</translation>
    </message>
    <message>
        <source>Saving the merge</source>
        <translation>保存合并</translation>
    </message>
    <message>
        <source>Saving the label</source>
        <translation>保存标注</translation>
    </message>
</context>
<context>
    <name>LaunchPanel</name>
    <message>
        <source>%1 · trains on %2 exports (%3)</source>
        <translation>%1 · 在 %2 导出上训练（%3）</translation>
    </message>
    <message>
        <source>Paper: %1</source>
        <translation>论文：%1</translation>
    </message>
    <message>
        <source>Choose the folder `trainer-bridge export` wrote.</source>
        <translation>请选择 `trainer-bridge export` 写出的文件夹。</translation>
    </message>
    <message>
        <source>Not listed: the command checks it is an export when it launches.</source>
        <translation>不在列表中：启动时命令会检查它是否为导出。</translation>
    </message>
    <message>
        <source>Stage %1, %2 format, %3 samples.</source>
        <translation>阶段 %1，%2 格式，%3 个样本。</translation>
    </message>
    <message>
        <source>This recipe trains on %1 exports.</source>
        <translation>此配方在 %1 导出上训练。</translation>
    </message>
    <message>
        <source>Choose an Export Folder</source>
        <translation>选择导出文件夹</translation>
    </message>
    <message>
        <source>Choose a recipe and an export folder first.</source>
        <translation>请先选择配方和导出文件夹。</translation>
    </message>
    <message>
        <source>Launching %1…</source>
        <translation>正在启动 %1…</translation>
    </message>
    <message>
        <source>The launch failed.</source>
        <translation>启动失败。</translation>
    </message>
    <message>
        <source># On a GPU machine that reaches this workspace (--data-dir, or --db for a shared database):</source>
        <translation># 在能访问此工作区的 GPU 机器上运行（--data-dir，共享数据库则用 --db）：</translation>
    </message>
    <message>
        <source># which runs (paths as on this machine):</source>
        <translation># 它将运行（路径为本机路径）：</translation>
    </message>
    <message>
        <source>Launching…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>&amp;Launch on This Machine</source>
        <translation>在本机启动(&amp;L)</translation>
    </message>
    <message>
        <source>Launch a Training Run</source>
        <translation>启动训练</translation>
    </message>
    <message>
        <source>&amp;Recipe:</source>
        <translation>配方(&amp;R)：</translation>
    </message>
    <message>
        <source>E&amp;xport:</source>
        <translation>导出(&amp;X)：</translation>
    </message>
    <message>
        <source>Learning rate:</source>
        <translation>学习率：</translation>
    </message>
    <message>
        <source>Epochs:</source>
        <translation>轮数：</translation>
    </message>
    <message>
        <source>Max steps:</source>
        <translation>最大步数：</translation>
    </message>
    <message>
        <source>Generations:</source>
        <translation>生成数：</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU 数：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Other settings:</source>
        <translation>其他设置：</translation>
    </message>
    <message>
        <source>as the epochs give</source>
        <translation>由轮数决定</translation>
    </message>
    <message>
        <source>Completions per prompt (GRPO recipes)</source>
        <translation>每个提示的生成数（GRPO 配方）</translation>
    </message>
    <message>
        <source>the recipe&apos;s</source>
        <translation>按配方</translation>
    </message>
    <message>
        <source>GPUs per machine; 0 trains on the CPU</source>
        <translation>每台机器的 GPU 数；0 表示在 CPU 上训练</translation>
    </message>
    <message>
        <source>the recipe&apos;s (tiny recipes build their own)</source>
        <translation>按配方（tiny 配方自建模型）</translation>
    </message>
    <message>
        <source>key=value …, e.g. save_steps=50 temperature=0.9</source>
        <translation>key=value …，例如 save_steps=50 temperature=0.9</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>Cop&amp;y Command</source>
        <translation>复制命令(&amp;Y)</translation>
    </message>
    <message>
        <source>Show the command to run on a GPU machine (nothing is started)</source>
        <translation>显示在 GPU 机器上运行的命令（不会启动任何进程）</translation>
    </message>
    <message>
        <source>Copy to Clipboard</source>
        <translation>复制到剪贴板</translation>
    </message>
    <message>
        <source>Training needs the train extra (missing: %1): pip install &apos;mobile-annotator[train]&apos;</source>
        <translation>训练需要 train 附加组件（缺少：%1）：pip install &apos;mobile-annotator[train]&apos;</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
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
        <source>Opened read-only: browse and export; nothing can be changed.</source>
        <translation>已以只读方式打开：可以浏览和导出，无法修改任何内容。</translation>
    </message>
    <message>
        <source>Created a new workspace in %1.</source>
        <translation>已在 %1 中新建工作区。</translation>
    </message>
    <message>
        <source>The database was upgraded; a backup of the old one is in %1.</source>
        <translation>数据库已升级；旧数据库的备份位于 %1。</translation>
    </message>
    <message>
        <source>The login %1 is nobody&apos;s on this workspace&apos;s list of people: ask an administrator.</source>
        <translation>登录名 %1 不属于此工作区人员名单上的任何人：请联系管理员。</translation>
    </message>
    <message>
        <source>%1 (read-only)</source>
        <translation>%1（只读）</translation>
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
    <name>MergeDialog</name>
    <message>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <source>%1: not valid JSON (%2)</source>
        <translation>%1：不是有效的 JSON（%2）</translation>
    </message>
    <message>
        <source>Someone Else Changed This</source>
        <translation>他人已修改</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>某人</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>The outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>%1 was changed by %2 at %3 while you were editing it. Your change is not saved yet: take theirs, keep yours on top of theirs, or edit and save.</source>
        <translation>%1 在你编辑时已被 %2 于 %3 修改。你的修改尚未保存：可采用对方的版本，在对方版本之上保留你的版本，或编辑后保存。</translation>
    </message>
    <message>
        <source>Theirs (%1, %2)</source>
        <translation>对方的（%1，%2）</translation>
    </message>
    <message>
        <source>Mine</source>
        <translation>我的</translation>
    </message>
    <message>
        <source>Edit (saved with Save Edited)</source>
        <translation>编辑（点“保存编辑”时保存）</translation>
    </message>
    <message>
        <source>Take Theirs</source>
        <translation>采用对方的</translation>
    </message>
    <message>
        <source>Keep Mine</source>
        <translation>保留我的</translation>
    </message>
    <message>
        <source>Save Edited</source>
        <translation>保存编辑</translation>
    </message>
</context>
<context>
    <name>ModelsCharts</name>
    <message>
        <source>Per app</source>
        <translation>按应用</translation>
    </message>
    <message>
        <source>No app has a scored step yet</source>
        <translation>还没有应用有已评分的步骤</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
</context>
<context>
    <name>ModelsView</name>
    <message>
        <source>Step accuracy</source>
        <translation>步骤准确率</translation>
    </message>
    <message>
        <source>Steps whose reply has the format and the right action (Mobile-R1 Acc.)</source>
        <translation>回复格式正确且动作正确的步骤（Mobile-R1 的 Acc.）</translation>
    </message>
    <message>
        <source>Task success</source>
        <translation>任务成功率</translation>
    </message>
    <message>
        <source>Type match (TM)</source>
        <translation>类型匹配（TM）</translation>
    </message>
    <message>
        <source>The predicted action type is the labelled one</source>
        <translation>预测的动作类型与标注一致</translation>
    </message>
    <message>
        <source>Grounding (GR)</source>
        <translation>定位准确率（GR）</translation>
    </message>
    <message>
        <source>Of the steps with a labelled point: the predicted point lies within 14% of the screen width of it</source>
        <translation>在标注了点的步骤中：预测的点与标注点的距离在屏幕宽度的 14% 以内</translation>
    </message>
    <message>
        <source>Step success rate (SR)</source>
        <translation>步骤成功率（SR）</translation>
    </message>
    <message>
        <source>Tail success</source>
        <translation>最终成功率</translation>
    </message>
    <message>
        <source>Claimed success</source>
        <translation>声明成功率</translation>
    </message>
    <message>
        <source>Runs in which the model said it had finished the task</source>
        <translation>模型声明已完成任务的运行</translation>
    </message>
    <message>
        <source>Step acc.</source>
        <translation>步骤准确率</translation>
    </message>
    <message>
        <source>Task succ.</source>
        <translation>任务成功率</translation>
    </message>
    <message>
        <source>TM</source>
        <translation>TM</translation>
    </message>
    <message>
        <source>TM is the type match of the AndroidControl and GUI-Odyssey protocol, scored by UI-R1&apos;s action-type rule (R_T).</source>
        <translation>TM 是 AndroidControl 和 GUI-Odyssey 评测协议中的动作类型匹配率，按 UI-R1 的动作类型规则（R_T）计分。</translation>
    </message>
    <message>
        <source>trainer-bridge eval&apos;s tables head it EM; the EM of UI-R1 and GUI-R1 is SR here.</source>
        <translation>trainer-bridge eval 的表格把它记作 EM；UI-R1 和 GUI-R1 所说的 EM 在这里是 SR。</translation>
    </message>
    <message>
        <source>GR is the AndroidControl protocol&apos;s grounding figure, by OS-Atlas&apos;s 14% rule, as UI-AGILE and GUI-R1 report it.</source>
        <translation>GR 是 AndroidControl 协议中的定位指标，按 OS-Atlas 的 14% 规则计算，与 UI-AGILE 和 GUI-R1 的报告方式相同。</translation>
    </message>
    <message>
        <source>This project&apos;s stricter online figure: Mobile-R1&apos;s Task Succ. (every step right) is an offline one.</source>
        <translation>本项目更严格的在线指标：Mobile-R1 的 Task Succ.（每一步都正确）是离线指标。</translation>
    </message>
    <message>
        <source>This project&apos;s figure: what the model claimed, done or not.</source>
        <translation>本项目的指标：模型声称的结果，无论任务是否完成。</translation>
    </message>
    <message>
        <source>pass@k: the chance that at least one of k answers sampled at the evaluation&apos;s temperature is right (step accuracy), by the unbiased estimator of Chen et al. (2021); Mobile-R1 reports it at temperature 0.7.</source>
        <translation>pass@k：按评测温度采样 k 个回答时至少有一个正确（步骤准确率）的概率，用 Chen 等人（2021）的无偏估计计算；Mobile-R1 在温度 0.7 下报告它。</translation>
    </message>
    <message>
        <source>Replies not in the answer format (R_Fmt = 0): nothing in them can be right.</source>
        <translation>不符合答案格式的回复（R_Fmt = 0）：其中没有任何内容能算对。</translation>
    </message>
    <message>
        <source>Step acc.: format and action right (Mobile-R1 Acc.) · TM: type match · R_Act: exact match, the point in the target box (Mobile-R1) · GR: grounding, the point within 14% of the screen width (OS-Atlas) · SR: step success, type, arguments and point right (AndroidControl; the EM / SR of UI-R1 and GUI-R1) · Task succ.: every step right · Tail succ.: done in the end (Mobile-R1) · —: not measured. Point at a column header for more.</source>
        <translation>步骤准确率：格式和动作都正确（Mobile-R1 Acc.）· TM：类型匹配 · R_Act：精确匹配，点在目标框内（Mobile-R1）· GR：定位，点与标注点的距离在屏幕宽度的 14% 以内（OS-Atlas）· SR：步骤成功，类型、参数和点都正确（AndroidControl；即 UI-R1 和 GUI-R1 的 EM / SR）· 任务成功率：每一步都正确 · 最终成功率：最后完成了任务（Mobile-R1）· —：未测量。把鼠标指向列标题可看更多说明。</translation>
    </message>
    <message>
        <source>Trajectories whose every step is right (Mobile-R1 Task Succ.)</source>
        <translation>每一步都正确的轨迹（Mobile-R1 Task Succ.）</translation>
    </message>
    <message>
        <source>Exact match (R_Act)</source>
        <translation>完全匹配（R_Act）</translation>
    </message>
    <message>
        <source>Type and every argument right; a point inside the target box (Mobile-R1&apos;s R_Act)</source>
        <translation>类型和每个参数都正确；点落在目标框内（Mobile-R1 的 R_Act）</translation>
    </message>
    <message>
        <source>Type and every argument right, a point within 14% of the screen width of the labelled one (AndroidControl&apos;s step success: the EM / SR of UI-R1 and GUI-R1)</source>
        <translation>类型和每个参数都正确，点与标注点的距离在屏幕宽度的 14% 以内（AndroidControl：UI-R1 和 GUI-R1 的 EM / SR）</translation>
    </message>
    <message>
        <source>Runs whose task is done at the end, whatever happened on the way (Mobile-R1 Tail Succ.)</source>
        <translation>结束时任务已完成的运行，不论中途出过什么错（Mobile-R1 Tail Succ.）</translation>
    </message>
    <message>
        <source>Done and claimed</source>
        <translation>完成且声明完成</translation>
    </message>
    <message>
        <source>Runs whose task is done at the end and in which the model said it had finished the task</source>
        <translation>结束时任务已完成且模型声明完成的运行</translation>
    </message>
    <message>
        <source>R_Act</source>
        <translation>R_Act</translation>
    </message>
    <message>
        <source>GR</source>
        <translation>GR</translation>
    </message>
    <message>
        <source>SR</source>
        <translation>SR</translation>
    </message>
    <message>
        <source>Tail succ.</source>
        <translation>最终成功率</translation>
    </message>
    <message>
        <source>Done+claimed</source>
        <translation>完成且声明</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>offline</source>
        <translation>离线</translation>
    </message>
    <message>
        <source>online</source>
        <translation>在线</translation>
    </message>
    <message>
        <source>selection</source>
        <translation>数据筛选</translation>
    </message>
    <message>
        <source>task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>request failed</source>
        <translation>请求失败</translation>
    </message>
    <message>
        <source>reply format</source>
        <translation>回复格式错误</translation>
    </message>
    <message>
        <source>wrong action type</source>
        <translation>动作类型错误</translation>
    </message>
    <message>
        <source>wrong argument</source>
        <translation>参数错误</translation>
    </message>
    <message>
        <source>%1 pts</source>
        <translation>%1 个百分点</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>The model the evaluation asked</source>
        <translation>评测所调用的模型</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Offline: held-out steps with their labelled history; online: runs on phones</source>
        <translation>离线：带标注历史的留出步骤；在线：在手机上运行</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <source>Evaluation #%1: %2</source>
        <translation>评测 #%1：%2</translation>
    </message>
    <message>
        <source>Started %1, finished %2</source>
        <translation>开始于 %1，结束于 %2</translation>
    </message>
    <message>
        <source>Reading the evaluations</source>
        <translation>正在读取评测</translation>
    </message>
    <message>
        <source>Reading the evaluation</source>
        <translation>正在读取该评测</translation>
    </message>
    <message>
        <source>Choose at most two evaluations to compare.</source>
        <translation>最多选择两个评测进行对比。</translation>
    </message>
    <message>
        <source>Comparing the evaluations</source>
        <translation>正在对比评测</translation>
    </message>
    <message>
        <source>These two cannot be compared: %1</source>
        <translation>这两个评测无法对比：%1</translation>
    </message>
    <message>
        <source>Reading the step&apos;s screenshot</source>
        <translation>正在读取该步骤的截图</translation>
    </message>
    <message numerus="yes">
        <source>Evaluations of this workspace: %n</source>
        <translation>
            <numerusform>本工作区的评测：%n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Evaluations</source>
        <translation>评测</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>读取中…</translation>
    </message>
    <message>
        <source>No workspace open: choose one with File › Open Workspace Folder…</source>
        <translation>未打开工作区：请通过“文件 › 打开工作区文件夹…”选择一个</translation>
    </message>
    <message>
        <source>Reading the evaluations…</source>
        <translation>正在读取评测…</translation>
    </message>
    <message>
        <source>The evaluations could not be read. Try Refresh.</source>
        <translation>无法读取评测。请点击“刷新”重试。</translation>
    </message>
    <message>
        <source>No evaluations yet. Evaluate a model on this workspace&apos;s held-out trajectories with
trainer-bridge eval --base-url URL --model M
(any OpenAI-compatible endpoint: vLLM serving a checkpoint, a hosted model); its figures, failed steps and comparisons appear here.</source>
        <translation>还没有评测。用以下命令在本工作区的留出轨迹上评测一个模型：
trainer-bridge eval --base-url URL --model M
（任何兼容 OpenAI 的接口均可：用 vLLM 部署的检查点，或托管的模型）；评测的指标、答错的步骤和对比会显示在这里。</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>汇总</translation>
    </message>
    <message>
        <source>Failed Steps (%1)</source>
        <translation>答错的步骤（%1）</translation>
    </message>
    <message>
        <source>Failed Steps</source>
        <translation>答错的步骤</translation>
    </message>
    <message>
        <source>Comparison</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>&amp;Compare with:</source>
        <translation>对比(&amp;C)：</translation>
    </message>
    <message>
        <source>Compare the chosen evaluation with another on the steps both answered</source>
        <translation>在两者都回答的步骤上，将所选评测与另一个评测对比</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Read the evaluations again (F5)</source>
        <translation>重新读取评测（F5）</translation>
    </message>
</context>
<context>
    <name>NewStudyDialog</name>
    <message>
        <source>New Validation Study</source>
        <translation>新建验证研究</translation>
    </message>
    <message>
        <source>%1: %2 · %3 (%4 scored)</source>
        <translation>%1：%2 · %3（已评分 %4 条）</translation>
    </message>
    <message>
        <source>Names, separated by commas, e.g. 小王, 小李, 张审核</source>
        <translation>姓名，用逗号分隔，例如 小王, 小李, 张审核</translation>
    </message>
    <message>
        <source>Spread each level over the apps</source>
        <translation>每个分数等级内均匀覆盖各应用</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>Judge:</source>
        <translation>评判模型：</translation>
    </message>
    <message>
        <source>Trajectories:</source>
        <translation>轨迹数：</translation>
    </message>
    <message>
        <source>Raters:</source>
        <translation>评分人：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>The sample is stratified over the judge&apos;s five score levels, as in Mobile-R1 Appendix I; raters never see the judge&apos;s scores.</source>
        <translation>样本按评判模型的五个分数等级分层抽取（同 Mobile-R1 附录 I）；评分人看不到评判模型的分数。</translation>
    </message>
    <message numerus="yes">
        <source>This judge scored %n trajectories: a study of it holds at most that many.</source>
        <translation>
            <numerusform>该评判模型评了 %n 条轨迹：基于它的研究最多包含这么多条。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (did you mean %2?)</source>
        <translation>%1（是不是 %2？）</translation>
    </message>
    <message>
        <source>Not on this workspace&apos;s list of people: %1. A rater must be someone the workspace knows: choose from the names offered as you type, or add the person first (annotator people add NAME --role annotator).</source>
        <translation>不在此工作区的人员名单上：%1。评分者必须是工作区认识的人：输入时从提示的名字中选择，或先添加这个人（annotator people add NAME --role annotator）。</translation>
    </message>
    <message>
        <source>Give the study a name.</source>
        <translation>请给研究起个名称。</translation>
    </message>
    <message>
        <source>No judge has scored anything yet: run the judge first (Judge view).</source>
        <translation>还没有评判模型打过分：请先运行评判（评判视图）。</translation>
    </message>
    <message>
        <source>Name at least one rater (Mobile-R1 used three).</source>
        <translation>至少填写一位评分人（Mobile-R1 用了三位）。</translation>
    </message>
    <message>
        <source>Otherwise a rater sees their differences once every rater has finished (recorded in the study)</source>
        <translation>否则评分人要等所有评分人都完成后，才能看到自己与评判模型的差异（记录在研究中）</translation>
    </message>
    <message>
        <source>Show a rater their differences from the judge as soon as they finish</source>
        <translation>评分人一完成评分，就显示其与评判模型的差异</translation>
    </message>
</context>
<context>
    <name>Opening</name>
    <message>
        <source>New Workspace?</source>
        <translation>新建工作区？</translation>
    </message>
    <message>
        <source>There is no workspace in %1.</source>
        <translation>%1 中没有工作区。</translation>
    </message>
    <message>
        <source>Create a new, empty workspace there, or choose the folder that holds yours.</source>
        <translation>在那里新建一个空的工作区，或选择存放你的工作区的文件夹。</translation>
    </message>
    <message>
        <source>Create Workspace</source>
        <translation>新建工作区</translation>
    </message>
    <message>
        <source>Choose Another Folder…</source>
        <translation>选择其他文件夹…</translation>
    </message>
    <message>
        <source>Read-Only Workspace</source>
        <translation>只读工作区</translation>
    </message>
    <message>
        <source>The workspace folder %1 is read-only: nothing in it can be changed here.</source>
        <translation>工作区文件夹 %1 是只读的：此处无法修改其中的任何内容。</translation>
    </message>
    <message>
        <source>Open it read-only to browse and export it? Labels, reviews and ratings cannot be saved then.</source>
        <translation>以只读方式打开以便浏览和导出吗？这样将无法保存标注、审核和评分。</translation>
    </message>
    <message>
        <source>Open Read-Only</source>
        <translation>以只读方式打开</translation>
    </message>
    <message>
        <source>Close Without Merging?</source>
        <translation>不合并就关闭？</translation>
    </message>
    <message>
        <source>Leave Without Merging?</source>
        <translation>不合并就离开？</translation>
    </message>
    <message>
        <source>Your edits of %1 step(s) are not saved: someone else changed those steps while you were editing them.</source>
        <translation>你对 %1 个步骤的修改尚未保存：在你编辑时，其他人修改了这些步骤。</translation>
    </message>
    <message>
        <source>Your text is kept and comes back, unsaved, when you open the trajectory again. Cancel to go back and merge it now.</source>
        <translation>你的文字会保留，再次打开该轨迹时会回到编辑器中（未保存）。点“取消”返回并立即合并。</translation>
    </message>
    <message>
        <source>Close Anyway</source>
        <translation>仍然关闭</translation>
    </message>
    <message>
        <source>Open the Other One</source>
        <translation>打开另一条</translation>
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
        <source>Resume From This Screen?</source>
        <translation>从当前屏幕继续？</translation>
    </message>
    <message>
        <source>The phone does not show the screen the run stopped on: %1</source>
        <translation>手机显示的不是运行停止时的屏幕：%1</translation>
    </message>
    <message>
        <source>Bring the phone back to that screen and resume, or go on from the screen it shows now.</source>
        <translation>请让手机回到那个屏幕再继续，或从它现在显示的屏幕继续。</translation>
    </message>
    <message>
        <source>Resume From This Screen</source>
        <translation>从当前屏幕继续</translation>
    </message>
</context>
<context>
    <name>PhoneTile</name>
    <message>
        <source>waiting for a run</source>
        <translation>等待运行</translation>
    </message>
    <message>
        <source>Run %1 of “%2”</source>
        <translation>“%2”的第 %1 次运行</translation>
    </message>
    <message>
        <source>trajectory %1</source>
        <translation>轨迹 %1</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>step %1: %2</source>
        <translation>第 %1 步：%2</translation>
    </message>
    <message>
        <source>trajectory %1: %2 after %3 steps</source>
        <translation>轨迹 %1：%3 步后%2</translation>
    </message>
    <message>
        <source>phone lost: %1</source>
        <translation>手机失去连接：%1</translation>
    </message>
    <message>
        <source>done: %1 of %2 runs complete, %3 steps</source>
        <translation>完成：%2 次运行中完成 %1 次，共 %3 步</translation>
    </message>
</context>
<context>
    <name>PrivacyRegions</name>
    <message>
        <source>Privacy regions: drag over personal data that no export may show.</source>
        <translation>隐私区域：拖动框住任何导出都不得显示的个人信息。</translation>
    </message>
    <message>
        <source>Privacy regions: drag to mark · Ctrl+click: an element · Click: select · Delete: remove · P: back to labelling</source>
        <translation>隐私区域：拖动标记 · Ctrl+单击：选取元素 · 单击：选中 · Delete：删除 · P：返回标注</translation>
    </message>
    <message>
        <source>Marked privacy region %1 of step %2: exports hide it.</source>
        <translation>已标记第 %2 步的隐私区域 %1：导出时会遮盖它。</translation>
    </message>
    <message>
        <source>Select a privacy region first: click it with the privacy tool (P), or right-click it.</source>
        <translation>请先选中一个隐私区域：用隐私工具（P）单击它，或右键单击它。</translation>
    </message>
    <message>
        <source>Deleted privacy region %1 of step %2 (Ctrl+Z brings it back).</source>
        <translation>已删除第 %2 步的隐私区域 %1（Ctrl+Z 可恢复）。</translation>
    </message>
    <message>
        <source>Step %1 has no privacy regions.</source>
        <translation>第 %1 步没有隐私区域。</translation>
    </message>
    <message numerus="yes">
        <source>Cleared %n privacy region(s) of step %1 (Ctrl+Z brings them back).</source>
        <translation>
            <numerusform>已清除第 %1 步的 %n 个隐私区域（Ctrl+Z 可恢复）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProgressLabel</name>
    <message>
        <source>Choose a phone on the left.</source>
        <translation>请在左侧选择一台手机。</translation>
    </message>
    <message>
        <source>Not recording: gestures and buttons move the phone, nothing is saved.</source>
        <translation>未在录制：手势和按钮会操作手机，但不会保存。</translation>
    </message>
    <message>
        <source>Agent on %1: run %2 of %3, step %4</source>
        <translation>智能体在 %1 上：第 %2/%3 次运行，第 %4 步</translation>
    </message>
    <message numerus="yes">
        <source>Recording on %1: %n step(s) so far</source>
        <translation>
            <numerusform>正在 %1 上录制：已录 %n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>Stopping after the current step…</source>
        <translation>将在当前步骤后停止…</translation>
    </message>
    <message numerus="yes">
        <source>Trajectory %1 saved: %n step(s), %2.</source>
        <translation>
            <numerusform>轨迹 %1 已保存：%n 步，%2。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trajectory %1 saved: %n step(s), %2 (%3).</source>
        <translation>
            <numerusform>轨迹 %1 已保存：%n 步，%2（%3）。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QueueModel</name>
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
        <source>Annotator</source>
        <translation>标注人</translation>
    </message>
    <message>
        <source>Last edit</source>
        <translation>最后修改</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>审核意见</translation>
    </message>
    <message>
        <source>Assigned to you by %1</source>
        <translation>由 %1 指派给你</translation>
    </message>
    <message>
        <source>a reviewer</source>
        <translation>审核员</translation>
    </message>
    <message>
        <source>Rejected by %1: %2</source>
        <translation>%1 退回：%2</translation>
    </message>
</context>
<context>
    <name>RatingPage</name>
    <message>
        <source>0: failed; nothing meaningful was done</source>
        <translation>0：完全失败，没有执行有意义的动作</translation>
    </message>
    <message>
        <source>1: a few actions; went off track early</source>
        <translation>1：只执行了少量动作，早期就偏离目标</translation>
    </message>
    <message>
        <source>2: partly done; the goal was not reached</source>
        <translation>2：部分完成，目标未完全实现</translation>
    </message>
    <message>
        <source>3: mostly done, or done with detours</source>
        <translation>3：大部分完成，或完成但过程低效</translation>
    </message>
    <message>
        <source>4: done, clearly and without detours</source>
        <translation>4：完美完成，逻辑清晰且没有冗余</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>Loading a study item</source>
        <translation>读取研究条目</translation>
    </message>
    <message>
        <source>Saving a score</source>
        <translation>保存评分</translation>
    </message>
    <message>
        <source>Saving a note</source>
        <translation>保存备注</translation>
    </message>
    <message>
        <source>The score of item %1 was not saved; give it again.</source>
        <translation>第 %1 条的评分没有保存，请重新评分。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · item %2 of %3 · %4 rated, as %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · 第 %2 条，共 %3 条 · 已评 %4 条，评分人 %5</translation>
    </message>
    <message>
        <source>Rubric</source>
        <translation>评分标准</translation>
    </message>
    <message>
        <source>The scale the judge and every rater use</source>
        <translation>评判模型和每位评分人使用的评分标准</translation>
    </message>
    <message>
        <source>Your score:</source>
        <translation>你的评分：</translation>
    </message>
    <message>
        <source>Note (optional): why this score</source>
        <translation>备注（可选）：为什么给这个分</translation>
    </message>
    <message>
        <source>Previous</source>
        <translation>上一条</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一条</translation>
    </message>
    <message>
        <source>Keys 0-4 score this trajectory and open the next; Alt+Left and Alt+Right move without scoring.</source>
        <translation>按 0-4 键为这条轨迹评分并打开下一条；Alt+左/右方向键只切换不评分。</translation>
    </message>
</context>
<context>
    <name>Recipes</name>
    <message>
        <source>GUI-R1 (0.2 format + 0.8 accuracy, 9 epochs)</source>
        <translation>GUI-R1（0.2 格式 + 0.8 准确率，9 轮）</translation>
    </message>
    <message>
        <source>InfiGUI-R1 stage 1 (SFT, lr 2e-6, global batch 32, warm-up 0.1)</source>
        <translation>InfiGUI-R1 第 1 阶段（SFT，学习率 2e-6，全局批量 32，预热 0.1）</translation>
    </message>
    <message>
        <source>InfiGUI-R1 stage 2 (RLOO, 16 rollouts, lr 1e-6, format-gated accuracy, sub-goal term)</source>
        <translation>InfiGUI-R1 第 2 阶段（RLOO，16 次采样，学习率 1e-6，格式门控的准确率，子目标项）</translation>
    </message>
    <message>
        <source>Mobile-R1 stage 1 (SFT, LoRA, 2 epochs, lr 1e-4, batch 1 x accumulation 8)</source>
        <translation>Mobile-R1 第 1 阶段（SFT，LoRA，2 轮，学习率 1e-4，批量 1 × 累积 8）</translation>
    </message>
    <message>
        <source>Mobile-R1 stage 2 (action-level GRPO, 8 rollouts, lr 1e-7, R_Act + R_Fmt)</source>
        <translation>Mobile-R1 第 2 阶段（动作级 GRPO，8 次采样，学习率 1e-7，R_Act + R_Fmt）</translation>
    </message>
    <message>
        <source>Mobile-R1 stage 3 (task-level online GRPO on phones, 4 rollouts, 14 steps, lr 1e-6)</source>
        <translation>Mobile-R1 第 3 阶段（在手机上做任务级在线 GRPO，4 次采样，14 步，学习率 1e-6）</translation>
    </message>
    <message>
        <source>Tiny SFT on the CPU (full tuning, 40 epochs); memorises a compact export of a few dozen steps</source>
        <translation>在 CPU 上的微型 SFT（全参数微调，40 轮）；记住几十步的精简导出</translation>
    </message>
    <message>
        <source>Tiny action-level GRPO on the CPU (full tuning, 4 answers a step, 32 steps)</source>
        <translation>在 CPU 上的微型动作级 GRPO（全参数微调，每步 4 个回答，32 步）</translation>
    </message>
    <message>
        <source>Tiny task-level GRPO on two virtual phones (full tuning, 2 steps, 2 rollouts of at most 3 actions)</source>
        <translation>在两台虚拟手机上的微型任务级 GRPO（全参数微调，2 步，2 次采样，每次最多 3 个动作）</translation>
    </message>
    <message>
        <source>UI-AGILE (continuous grounding + simple thinking, cropping-based resampling, 8 generations, lr 1e-6)</source>
        <translation>UI-AGILE（连续定位 + 简单思考，基于裁剪的重采样，8 次生成，学习率 1e-6）</translation>
    </message>
    <message>
        <source>UI-R1 (R_T + R_C + R_F, 8 generations, 8 epochs, lr 9.98e-7 to 0)</source>
        <translation>UI-R1（R_T + R_C + R_F，8 次生成，8 轮，学习率从 9.98e-7 降到 0）</translation>
    </message>
    <message>
        <source>GUI-R1 3.2 and 4.1</source>
        <translation>GUI-R1 第 3.2 和 4.1 节</translation>
    </message>
    <message>
        <source>InfiGUI-R1 3.1 and 4.1</source>
        <translation>InfiGUI-R1 第 3.1 和 4.1 节</translation>
    </message>
    <message>
        <source>InfiGUI-R1 3.2.1, 3.2.2 and 4.1</source>
        <translation>InfiGUI-R1 第 3.2.1、3.2.2 和 4.1 节</translation>
    </message>
    <message>
        <source>Mobile-R1 4.2.2, 5.1.3 and Appendix E</source>
        <translation>Mobile-R1 第 4.2.2、5.1.3 节和附录 E</translation>
    </message>
    <message>
        <source>Mobile-R1 4.4, 5.1.3 and Appendix E</source>
        <translation>Mobile-R1 第 4.4、5.1.3 节和附录 E</translation>
    </message>
    <message>
        <source>Mobile-R1 5.1.3 and Appendix E</source>
        <translation>Mobile-R1 第 5.1.3 节和附录 E</translation>
    </message>
    <message>
        <source>UI-AGILE 3.1-3.3, 4.1 and Table 1</source>
        <translation>UI-AGILE 第 3.1-3.3、4.1 节和表 1</translation>
    </message>
    <message>
        <source>UI-R1 eq. 2 and Appendix A.1</source>
        <translation>UI-R1 公式 2 和附录 A.1</translation>
    </message>
    <message>
        <source>none (a smoke run)</source>
        <translation>无（冒烟测试运行）</translation>
    </message>
    <message>
        <source>none (the demo&apos;s and the learning tests&apos; model)</source>
        <translation>无（演示和学习测试用的模型）</translation>
    </message>
</context>
<context>
    <name>RejectDialog</name>
    <message>
        <source>Think: not state → action → goal</source>
        <translation>思考未按 状态 → 动作 → 目标</translation>
    </message>
    <message>
        <source>The think does not follow state -&gt; next action -&gt; goal.</source>
        <translation>思考没有按照“当前状态 -&gt; 下一步动作 -&gt; 目标”来写。</translation>
    </message>
    <message>
        <source>Wrong tool call coordinates</source>
        <translation>工具调用坐标错误</translation>
    </message>
    <message>
        <source>Wrong tool call coordinates: the point is not on the target element.</source>
        <translation>工具调用的坐标错误：点击位置不在目标元素上。</translation>
    </message>
    <message>
        <source>Task not completed</source>
        <translation>任务未完成</translation>
    </message>
    <message>
        <source>The task is not completed, but the outcome says it is.</source>
        <translation>任务并未完成，但结果标为已完成。</translation>
    </message>
    <message>
        <source>Wrong step marked correct</source>
        <translation>错误步骤标为正确</translation>
    </message>
    <message>
        <source>A wrong or redundant step is marked correct.</source>
        <translation>有错误或多余的步骤被标为“正确”。</translation>
    </message>
    <message>
        <source>Unclear action text</source>
        <translation>动作描述不清楚</translation>
    </message>
    <message>
        <source>The action text is not a clear low-level instruction.</source>
        <translation>动作描述不是一条清楚的底层操作指令。</translation>
    </message>
    <message>
        <source>Target box missing</source>
        <translation>缺少目标框</translation>
    </message>
    <message>
        <source>The target element box is missing or does not frame the element.</source>
        <translation>缺少目标元素框，或框没有框住该元素。</translation>
    </message>
    <message>
        <source>Reject Trajectory</source>
        <translation>退回轨迹</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Tell the annotator what to fix: they read it at the top of their queue.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;请告诉标注员需要改什么：这条意见会显示在他们任务队列的最上方。</translation>
    </message>
    <message>
        <source>For example: step 3 clicks the wrong tab; the think …</source>
        <translation>例如：第 3 步点错了标签页；思考……</translation>
    </message>
    <message>
        <source>Common reasons (click to add):</source>
        <translation>常见原因（点击添加）：</translation>
    </message>
    <message>
        <source>Reject</source>
        <translation>退回</translation>
    </message>
</context>
<context>
    <name>ReportPage</name>
    <message>
        <source>%1 trajectories, %2 compared, %3 rated by every rater; raters: %4</source>
        <translation>共 %1 条轨迹，%2 条可比较，%3 条每位评分人都评过；评分人：%4</translation>
    </message>
    <message>
        <source>adjudicated</source>
        <translation>已裁定</translation>
    </message>
    <message>
        <source>no majority</source>
        <translation>无多数意见</translation>
    </message>
    <message>
        <source>%1 Wilson</source>
        <translation>%1 Wilson</translation>
    </message>
    <message>
        <source>%1 bootstrap</source>
        <translation>%1 bootstrap</translation>
    </message>
    <message>
        <source>Paired percentile bootstrap: %1 resamples, %2 undefined (left out)</source>
        <translation>配对百分位 bootstrap：%1 次重抽样，%2 次无定义（已排除）</translation>
    </message>
    <message>
        <source>Without a majority:</source>
        <translation>无多数意见时：</translation>
    </message>
    <message>
        <source>Save Report…</source>
        <translation>保存报告…</translation>
    </message>
    <message>
        <source>Judge vs raters</source>
        <translation>评判模型与评分人</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>95% interval</source>
        <translation>95% 区间</translation>
    </message>
    <message>
        <source>Rater vs the others</source>
        <translation>评分人与其他人</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Exact</source>
        <translation>完全一致</translation>
    </message>
    <message>
        <source>Within one</source>
        <translation>相差一级内</translation>
    </message>
    <message>
        <source>QW kappa</source>
        <translation>二次加权 kappa</translation>
    </message>
    <message>
        <source>Spearman</source>
        <translation>Spearman</translation>
    </message>
    <message>
        <source>Trajectories without a majority of the raters, and those adjudicated</source>
        <translation>评分人没有多数意见的轨迹，以及已裁定的轨迹</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Ratings</source>
        <translation>评分</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Adjudicate…</source>
        <translation>裁定…</translation>
    </message>
</context>
<context>
    <name>ReviewView</name>
    <message>
        <source>Loading the review queues</source>
        <translation>读取审核队列</translation>
    </message>
    <message>
        <source>Fixed and accepted: %1</source>
        <translation>已修改并接受：%1</translation>
    </message>
    <message>
        <source>Accepted: %1</source>
        <translation>已接受：%1</translation>
    </message>
    <message>
        <source>Accepting a trajectory</source>
        <translation>接受轨迹</translation>
    </message>
    <message>
        <source>Trajectory %1</source>
        <translation>轨迹 %1</translation>
    </message>
    <message>
        <source>Rejecting a trajectory</source>
        <translation>退回轨迹</translation>
    </message>
    <message>
        <source>Rejected: %1 (back in the annotator&apos;s queue with your comment)</source>
        <translation>已退回：%1（已连同你的意见回到标注员的队列）</translation>
    </message>
    <message>
        <source>Open a workspace first.</source>
        <translation>请先打开一个工作区。</translation>
    </message>
    <message>
        <source>Choose a trajectory in the queue first.</source>
        <translation>请先在队列中选择一条轨迹。</translation>
    </message>
    <message>
        <source>Trajectory %1 is not waiting for review (it is %2): only submitted work is decided.</source>
        <translation>轨迹 %1 不在待审核状态（当前为%2）：只能审核已提交的标注。</translation>
    </message>
    <message>
        <source>Say who you are first (File › Who Is Working…): a review is saved under the reviewer&apos;s name.</source>
        <translation>请先登记你是谁（文件 › 当前使用者…）：审核结果会以审核员的名字保存。</translation>
    </message>
    <message>
        <source>Loading the trajectory</source>
        <translation>读取轨迹</translation>
    </message>
    <message>
        <source>No workspace open: choose one with File › Open Workspace Folder…</source>
        <translation>未打开工作区：请通过“文件 › 打开工作区文件夹…”选择一个</translation>
    </message>
    <message>
        <source>Say who you are (File › Who Is Working…) to see your work.</source>
        <translation>请登记你是谁（文件 › 当前使用者…）以查看你的任务。</translation>
    </message>
    <message>
        <source>Nothing in your queue: no rejected, started or unlabelled trajectory.</source>
        <translation>你的队列为空：没有被退回、进行中或未标注的轨迹。</translation>
    </message>
    <message>
        <source>No trajectory is waiting for review.</source>
        <translation>没有待审核的轨迹。</translation>
    </message>
    <message>
        <source>You are &lt;b&gt;%1&lt;/b&gt;: reviews and fixes are saved under this name.</source>
        <translation>你是 &lt;b&gt;%1&lt;/b&gt;：审核结果和修改都以这个名字保存。</translation>
    </message>
    <message>
        <source>Say who you are (File › Who Is Working…) before accepting or rejecting.</source>
        <translation>接受或退回之前，请先登记你是谁（文件 › 当前使用者…）。</translation>
    </message>
    <message>
        <source>Fixing #%1: edit it in the annotation view, then Accept (your edits are revisions).</source>
        <translation>正在修改 #%1：在标注视图中修改后点击“接受”（你的修改会记入修订历史）。</translation>
    </message>
    <message numerus="yes">
        <source>Waiting for review (%n)</source>
        <translation>
            <numerusform>待审核（%n）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>My work (%n)</source>
        <translation>
            <numerusform>我的任务（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>The first %1 of %2 are listed; the rest follow as these are done.</source>
        <translation>列出了 %2 条中的前 %1 条；做完这些，其余的会接着列出。</translation>
    </message>
    <message>
        <source>Your rejected work first, with the reviewer&apos;s comment</source>
        <translation>被退回的任务排在最前，并附审核意见</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Accept</source>
        <translation>接受</translation>
    </message>
    <message>
        <source>Accept the trajectory (Ctrl+Shift+A)</source>
        <translation>接受这条轨迹（Ctrl+Shift+A）</translation>
    </message>
    <message>
        <source>Fix and Accept…</source>
        <translation>修改后接受…</translation>
    </message>
    <message>
        <source>Open it in the annotation view to edit it, then accept (Ctrl+Shift+E)</source>
        <translation>在标注视图中打开并修改，然后接受（Ctrl+Shift+E）</translation>
    </message>
    <message>
        <source>Reject…</source>
        <translation>退回…</translation>
    </message>
    <message>
        <source>Send it back to the annotator with a comment (Ctrl+Shift+X)</source>
        <translation>附上意见退回给标注员（Ctrl+Shift+X）</translation>
    </message>
    <message>
        <source>Open for Editing</source>
        <translation>打开编辑</translation>
    </message>
    <message>
        <source>Open it in the annotation view (Enter)</source>
        <translation>在标注视图中打开（Enter）</translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <source>Give the endpoint&apos;s URL and the model&apos;s name.</source>
        <translation>请填写端点 URL 和模型名称。</translation>
    </message>
    <message>
        <source>Choose a Judge Prompt</source>
        <translation>选择评判提示词</translation>
    </message>
    <message>
        <source>Text files (*.txt *.md);;All files (*)</source>
        <translation>文本文件 (*.txt *.md);;所有文件 (*)</translation>
    </message>
    <message>
        <source>New run</source>
        <translation>新的运行</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>URL：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>API key env:</source>
        <translation>API 密钥环境变量：</translation>
    </message>
    <message>
        <source>Prompt:</source>
        <translation>提示词：</translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation>温度：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>Longest side of screenshots:</source>
        <translation>截图长边：</translation>
    </message>
    <message>
        <source>Screenshots per trajectory:</source>
        <translation>每条轨迹的截图数：</translation>
    </message>
    <message>
        <source>App:</source>
        <translation>应用：</translation>
    </message>
    <message>
        <source>At most:</source>
        <translation>最多：</translation>
    </message>
    <message>
        <source>Requests at once:</source>
        <translation>并发请求数：</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>评判模型</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1</source>
        <translation>OpenAI 兼容的基础 URL，例如 http://127.0.0.1:8000/v1</translation>
    </message>
    <message>
        <source>Model name, e.g. gpt-4o</source>
        <translation>模型名称，例如 gpt-4o</translation>
    </message>
    <message>
        <source>The environment variable that holds the API key (optional for local servers)</source>
        <translation>保存 API 密钥的环境变量（本地服务器可不填）</translation>
    </message>
    <message>
        <source>Choose a file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>The judge&apos;s instructions: a built-in prompt, or a variant of your own</source>
        <translation>评判模型的指令：内置提示词，或你自己的变体</translation>
    </message>
    <message>
        <source>Sampling temperature sent to the model (0: the most likely answer)</source>
        <translation>发给模型的采样温度（0：最可能的回答）</translation>
    </message>
    <message>
        <source>Sampling seed sent to the endpoint</source>
        <translation>发给端点的采样种子</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Screenshots are scaled so that their longer side is at most this long</source>
        <translation>截图会被缩放，使长边不超过该值</translation>
    </message>
    <message>
        <source>At most this many screenshots per trajectory: the first and the last ones</source>
        <translation>每条轨迹最多发送这么多张截图：保留最前和最后的几张</translation>
    </message>
    <message>
        <source>All apps</source>
        <translation>全部应用</translation>
    </message>
    <message>
        <source>Only what this judge has not scored</source>
        <translation>只评该评判模型未评过的</translation>
    </message>
    <message>
        <source>Leave out what this judge scored before the limit applies (a run skips them anyway)</source>
        <translation>在应用数量上限前排除该评判模型已评分的轨迹（运行时本来也会跳过它们）</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>How many trajectories are sent to the endpoint at the same time</source>
        <translation>同时发送给端点的轨迹数</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Judge the chosen trajectories (Ctrl+Return)</source>
        <translation>评判所选轨迹（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop after the requests in flight; the scores so far are kept</source>
        <translation>等进行中的请求完成后停止；已有的评分都会保存</translation>
    </message>
</context>
<context>
    <name>RunPage</name>
    <message>
        <source>Run %1 · %2 · %3</source>
        <translation>训练 %1 · %2 · %3</translation>
    </message>
    <message>
        <source>Step %1, loss %2, reward %3</source>
        <translation>步数 %1，损失 %2，奖励 %3</translation>
    </message>
    <message>
        <source>Export: %1</source>
        <translation>导出：%1</translation>
    </message>
    <message>
        <source>Output: %1</source>
        <translation>输出：%1</translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation>模型：%1</translation>
    </message>
    <message>
        <source>the recipe&apos;s (tiny, built offline)</source>
        <translation>按配方（tiny，离线构建）</translation>
    </message>
    <message>
        <source>Resumes run %1</source>
        <translation>继续训练 %1</translation>
    </message>
    <message>
        <source>Completion</source>
        <translation>生成内容</translation>
    </message>
    <message>
        <source>Curves</source>
        <translation>曲线</translation>
    </message>
    <message>
        <source>Completions (step %1)</source>
        <translation>生成内容（第 %1 步）</translation>
    </message>
    <message>
        <source>Completions</source>
        <translation>生成内容</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Resuming…</source>
        <translation>正在继续…</translation>
    </message>
    <message>
        <source>Evaluating %1 on the held-out trajectories… (a minute or more)</source>
        <translation>正在留出轨迹上评测 %1…（需一分钟或更久）</translation>
    </message>
    <message>
        <source>The command failed (%1).</source>
        <translation>命令失败（%1）。</translation>
    </message>
    <message>
        <source>Evaluation %1 is done: step accuracy %2.</source>
        <translation>评测 %1 已完成：步骤准确率 %2。</translation>
    </message>
    <message>
        <source>&amp;Cancel Run</source>
        <translation>取消训练(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the run&apos;s processes (terminate, wait, kill)</source>
        <translation>停止训练的进程（终止、等待、强制结束）</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>继续(&amp;U)</translation>
    </message>
    <message>
        <source>Launch it again from its last checkpoint, as a new run</source>
        <translation>从最后的检查点再次启动，作为一次新的训练</translation>
    </message>
    <message>
        <source>&amp;Evaluate Checkpoint</source>
        <translation>评测检查点(&amp;E)</translation>
    </message>
    <message>
        <source>Evaluate the run&apos;s model offline on the workspace&apos;s held-out trajectories (trainer-bridge eval)</source>
        <translation>在工作区的留出轨迹上离线评测此训练的模型（trainer-bridge eval）</translation>
    </message>
    <message>
        <source>&amp;Open in Models</source>
        <translation>在模型视图中打开(&amp;O)</translation>
    </message>
</context>
<context>
    <name>RunPanel</name>
    <message>
        <source>Start recording</source>
        <translation>开始录制</translation>
    </message>
    <message>
        <source>Record a teleoperated trajectory for the chosen instruction</source>
        <translation>为所选指令录制一条遥操作轨迹</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>End the recording or the agent run after the current step</source>
        <translation>在当前步骤后结束录制或智能体运行</translation>
    </message>
    <message>
        <source>Recorded steps</source>
        <translation>已录制的步骤</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Judge %1, run %2 ended early (%3 scored, %4 without a usable score): %5</source>
        <translation>评判模型 %1，第 %2 次运行提前结束（已评分 %3 条，%4 条没有有效评分）：%5</translation>
    </message>
    <message>
        <source>Judge %1, run %2: %3 scored, %4 without a usable score, %5 scored before; %6 in %7 s</source>
        <translation>评判模型 %1，第 %2 次运行：已评分 %3 条，%4 条没有有效评分，%5 条之前已评分；%6，用时 %7 秒</translation>
    </message>
    <message>
        <source>The image cap left out %1 screenshots in %2 trajectories (the first and last are kept).</source>
        <translation>图片上限在 %2 条轨迹中略去了 %1 张截图（保留第一张和最后一张）。</translation>
    </message>
    <message>
        <source>%1 of %2 judged: %3 scored, %4 without a usable score</source>
        <translation>已评判 %1/%2 条：%3 条已评分，%4 条没有有效评分</translation>
    </message>
    <message>
        <source>Starting the run…</source>
        <translation>正在开始运行…</translation>
    </message>
    <message>
        <source>Stopping after the requests in flight…</source>
        <translation>正在等待进行中的请求完成后停止…</translation>
    </message>
    <message>
        <source>Last error (trajectory %1): %2</source>
        <translation>最近的错误（轨迹 %1）：%2</translation>
    </message>
</context>
<context>
    <name>RunsCharts</name>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Mean reward</source>
        <translation>平均奖励</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>No step logged yet</source>
        <translation>尚未记录任何步</translation>
    </message>
    <message>
        <source>%1: first %2, last %3</source>
        <translation>%1：最初 %2，最后 %3</translation>
    </message>
    <message>
        <source>mean of %1 steps</source>
        <translation>%1 步的平均值</translation>
    </message>
    <message>
        <source>Loss (log scale)</source>
        <translation>损失（对数刻度）</translation>
    </message>
    <message>
        <source>Loss (linear scale)</source>
        <translation>损失（线性刻度）</translation>
    </message>
    <message>
        <source>Mean reward per completion
(sum of the reward terms)</source>
        <translation>每个补全的平均奖励
（各奖励项之和）</translation>
    </message>
</context>
<context>
    <name>RunsView</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>cancelling</source>
        <translation>取消中</translation>
    </message>
    <message>
        <source>complete</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Recipe</source>
        <translation>配方</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>The last logged step of the steps planned</source>
        <translation>最后记录的步数 / 计划步数</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>The last logged training loss</source>
        <translation>最后记录的训练损失</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>奖励</translation>
    </message>
    <message>
        <source>The last logged mean reward (GRPO)</source>
        <translation>最后记录的平均奖励（GRPO）</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Hours:minutes:seconds so far</source>
        <translation>至今的时:分:秒</translation>
    </message>
    <message>
        <source>Reading the training runs</source>
        <translation>读取训练记录</translation>
    </message>
    <message>
        <source>Reading the training run</source>
        <translation>读取训练</translation>
    </message>
    <message numerus="yes">
        <source>Training runs of this workspace: %n</source>
        <translation>
            <numerusform>本工作区的训练：%n 次</numerusform>
        </translation>
    </message>
    <message>
        <source>Training runs</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>读取中…</translation>
    </message>
    <message>
        <source>No workspace open: choose one with File › Open Workspace Folder…</source>
        <translation>未打开工作区：请通过“文件 › 打开工作区文件夹…”选择一个</translation>
    </message>
    <message>
        <source>Reading the training runs…</source>
        <translation>正在读取训练记录…</translation>
    </message>
    <message>
        <source>No training runs yet. Choose a recipe and an export on the left and launch it (a tiny recipe trains on the CPU in about a minute), or on a terminal:
trainer-bridge train RECIPE --data EXPORT --data-dir %1
An export is made with trainer-bridge export --stage sft --format trl --out %1/exports/sft</source>
        <translation>还没有训练。在左侧选择配方和导出后启动（tiny 配方在 CPU 上约一分钟训练完），或在终端运行：
trainer-bridge train RECIPE --data EXPORT --data-dir %1
导出可用 trainer-bridge export --stage sft --format trl --out %1/exports/sft 生成</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Read the training runs again (F5)</source>
        <translation>重新读取训练记录（F5）</translation>
    </message>
</context>
<context>
    <name>SelfReview</name>
    <message>
        <source>Accept Your Own Work?</source>
        <translation>接受你自己的标注？</translation>
    </message>
    <message>
        <source>You labelled %1 of the steps of “%2” yourself.</source>
        <translation>“%2”的步骤中有 %1 步是你自己标注的。</translation>
    </message>
    <message>
        <source>A review is a second person&apos;s check. Accept it all the same? No leaves it for another reviewer.</source>
        <translation>审核应由另一个人检查。仍然接受吗？选“否”则留给其他审核员。</translation>
    </message>
    <message>
        <source>Checking who labelled the trajectory</source>
        <translation>正在查看谁标注了该轨迹</translation>
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
        <source>Where it acts</source>
        <translation>作用范围</translation>
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
    <message>
        <source>Everywhere</source>
        <translation>所有视图</translation>
    </message>
</context>
<context>
    <name>StageEditors</name>
    <message>
        <source>&amp;Think</source>
        <translation>思考(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Action</source>
        <translation>动作(&amp;A)</translation>
    </message>
    <message>
        <source>T&amp;ool call</source>
        <translation>工具调用(&amp;O)</translation>
    </message>
    <message>
        <source>Stage 1 · Logical thinking: the current state or screen, then the next action, then its goal. Rewrite thinking that is wrong or redundant.</source>
        <translation>阶段 1 · 逻辑思考：先写当前状态或界面，再写下一步动作，最后写该动作的目的。错误或冗余的思考需要重写。</translation>
    </message>
    <message>
        <source>Stage 2 · Clear action: one explicit low-level instruction, as in AndroidControl.</source>
        <translation>阶段 2 · 明确动作：一条清晰的底层操作指令，参照 AndroidControl。</translation>
    </message>
    <message>
        <source>Not labelled yet. E.g. Currently on the phone home screen, the next step is to click the Taobao app to enter Taobao. (Ctrl+K keeps the original.)</source>
        <translation>尚未标注。例如：当前在手机桌面，下一步点击淘宝应用，以进入淘宝。（按 Ctrl+K 保留原始内容。）</translation>
    </message>
    <message>
        <source>Not labelled yet. E.g. Click the search box at the top. (Ctrl+K keeps the original.)</source>
        <translation>尚未标注。例如：点击顶部的搜索框。（按 Ctrl+K 保留原始内容。）</translation>
    </message>
    <message>
        <source>Labelled</source>
        <translation>已标注</translation>
    </message>
    <message>
        <source>Not labelled yet</source>
        <translation>尚未标注</translation>
    </message>
    <message>
        <source>needs a look: the point moved</source>
        <translation>需要检查：点已移动</translation>
    </message>
    <message>
        <source>tabs: ✓ labelled, · not yet, ⚠ needs a look</source>
        <translation>标签页：✓ 已标注，· 未标注，⚠ 需要再看</translation>
    </message>
    <message>
        <source>%1 of 3 stages labelled</source>
        <translation>已标注 %1/3 个阶段</translation>
    </message>
    <message>
        <source>The point is on another element now: the action text may be stale. R takes “%1”.</source>
        <translation>点现在位于另一个元素上：动作文本可能已过时。按 R 采用“%1”。</translation>
    </message>
</context>
<context>
    <name>StageTextEditor</name>
    <message>
        <source>Draft by %1 (T takes it; Space takes it and accepts the step):</source>
        <translation>%1 的草稿（按 T 采用；按空格采用并接受本步）：</translation>
    </message>
    <message>
        <source>not labelled yet</source>
        <translation>尚未标注</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s) marked</source>
        <translation>
            <numerusform>已标出 %n 处改动</numerusform>
        </translation>
    </message>
    <message>
        <source>the label keeps it as it is</source>
        <translation>标注与原始内容相同</translation>
    </message>
    <message>
        <source>Original (as collected)</source>
        <translation>原始内容（采集时）</translation>
    </message>
    <message>
        <source>Nothing was collected for this stage (a teleoperated or an inserted step).</source>
        <translation>此阶段没有采集内容（人工操作或插入的步骤）。</translation>
    </message>
</context>
<context>
    <name>StaleMerges</name>
    <message>
        <source>Took their version.</source>
        <translation>已采用对方的版本。</translation>
    </message>
    <message>
        <source>Saved yours on top of theirs.</source>
        <translation>已在对方版本之上保存你的版本。</translation>
    </message>
    <message>
        <source>Saved the edited version on top of theirs.</source>
        <translation>已在对方版本之上保存编辑后的版本。</translation>
    </message>
    <message>
        <source>Not saved: someone else changed this meanwhile. Your text stays in the editor, unsaved; your next change offers the merge again.</source>
        <translation>未保存：他人在此期间修改了这里。你的文字仍在编辑框中，尚未保存；下次修改时会再次提供合并。</translation>
    </message>
</context>
<context>
    <name>StatsCharts</name>
    <message>
        <source>Trajectories and steps per app</source>
        <translation>各应用的轨迹数与步数</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>轨迹数</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Distribution of trajectory length</source>
        <translation>轨迹长度分布</translation>
    </message>
    <message>
        <source>Steps per trajectory</source>
        <translation>每条轨迹的步数</translation>
    </message>
    <message>
        <source>mean %1</source>
        <translation>平均 %1</translation>
    </message>
    <message>
        <source>Steps per action type</source>
        <translation>各动作类型的步数</translation>
    </message>
    <message>
        <source>labelled action</source>
        <translation>已标注的动作</translation>
    </message>
    <message>
        <source>collected action (not labelled)</source>
        <translation>采集时的动作（未标注）</translation>
    </message>
    <message>
        <source>(no action)</source>
        <translation>（无动作）</translation>
    </message>
    <message>
        <source>Review progress</source>
        <translation>审核进度</translation>
    </message>
    <message>
        <source>No trajectories yet</source>
        <translation>还没有轨迹</translation>
    </message>
</context>
<context>
    <name>StatsView</name>
    <message>
        <source>App</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation>指令数</translation>
    </message>
    <message>
        <source>Instructions with at least one trajectory</source>
        <translation>至少有一条轨迹的指令</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>轨迹数</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Steps per trajectory</source>
        <translation>平均步数</translation>
    </message>
    <message>
        <source>Mean number of steps of this app&apos;s trajectories</source>
        <translation>该应用轨迹的平均步数</translation>
    </message>
    <message>
        <source>Person</source>
        <translation>人员</translation>
    </message>
    <message>
        <source>Trajectories labelled</source>
        <translation>标注轨迹数</translation>
    </message>
    <message>
        <source>Trajectories in which this person changed at least one label</source>
        <translation>此人至少修改过一处标注的轨迹</translation>
    </message>
    <message>
        <source>Steps labelled</source>
        <translation>标注步数</translation>
    </message>
    <message>
        <source>Steps in which this person changed at least one label</source>
        <translation>此人至少修改过一处标注的步骤</translation>
    </message>
    <message>
        <source>Label changes</source>
        <translation>标注修改次数</translation>
    </message>
    <message>
        <source>Every change of a label field, each one a revision in the history</source>
        <translation>标注字段的每一次修改，每次都是历史中的一个版本</translation>
    </message>
    <message>
        <source>Reviews done</source>
        <translation>审核次数</translation>
    </message>
    <message>
        <source>Review decisions this person made</source>
        <translation>此人做出的审核决定</translation>
    </message>
    <message>
        <source>Accepted</source>
        <translation>已通过</translation>
    </message>
    <message>
        <source>Trajectories this person labelled that are now accepted</source>
        <translation>此人标注、目前已通过的轨迹</translation>
    </message>
    <message>
        <source>Rejected</source>
        <translation>已驳回</translation>
    </message>
    <message>
        <source>Trajectories this person labelled that are now rejected</source>
        <translation>此人标注、目前已驳回的轨迹</translation>
    </message>
    <message>
        <source>Awaiting review</source>
        <translation>待审核</translation>
    </message>
    <message>
        <source>Trajectories this person labelled that wait for a reviewer</source>
        <translation>此人标注、正在等待审核的轨迹</translation>
    </message>
    <message>
        <source>Active hours: the gaps between a person&apos;s consecutive label changes that are shorter than 10 minutes, added up; a longer pause is a break and does not count</source>
        <translation>活跃小时：一个人相邻两次标签改动之间短于 10 分钟的间隔加起来；更长的停顿算作休息，不计入</translation>
    </message>
    <message>
        <source>Active hours</source>
        <translation>活跃小时</translation>
    </message>
    <message>
        <source>Steps per hour</source>
        <translation>每小时步数</translation>
    </message>
    <message>
        <source>Steps labelled per active hour (gaps under 10 minutes between label changes count as work); shown from 6 active minutes on</source>
        <translation>每个活跃小时标注的步数（标签改动之间短于 10 分钟的间隔算作工作）；活跃满 6 分钟才显示</translation>
    </message>
    <message>
        <source>Changed by review</source>
        <translation>被审核改动</translation>
    </message>
    <message>
        <source>Share of the steps this person labelled that a reviewer or an admin changed afterwards</source>
        <translation>此人标注过的步骤中，之后被审核员或管理员改过的比例</translation>
    </message>
    <message>
        <source>Rejection rate</source>
        <translation>驳回率</translation>
    </message>
    <message>
        <source>Share of this person&apos;s reviewed trajectories that a reviewer rejected at least once</source>
        <translation>此人已审的轨迹中，至少被驳回一次的比例</translation>
    </message>
    <message>
        <source>Computing the dataset statistics</source>
        <translation>计算数据集统计</translation>
    </message>
    <message>
        <source>Computing the statistics…</source>
        <translation>正在计算统计…</translation>
    </message>
    <message numerus="yes">
        <source>%Ln app(s)</source>
        <translation>
            <numerusform>%Ln 个应用</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln instruction(s)</source>
        <translation>
            <numerusform>%Ln 条指令</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln trajectory(s)</source>
        <translation>
            <numerusform>%Ln 条轨迹</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln step(s)</source>
        <translation>
            <numerusform>%Ln 步</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 steps per trajectory</source>
        <translation>平均每条轨迹 %1 步</translation>
    </message>
    <message>
        <source>Updating…</source>
        <translation>正在更新…</translation>
    </message>
    <message>
        <source>Updated at %1</source>
        <translation>更新于 %1</translation>
    </message>
    <message>
        <source>Model drafts: %1 steps drafted, %2 offered · %3 labels began as drafts · %4 of %5 stages taken from drafts were changed since</source>
        <translation>模型草稿：已为 %1 个步骤生成草稿，提供 %2 个 · %3 个标注以草稿开始 · 采用自草稿的 %5 个阶段中有 %4 个之后被修改</translation>
    </message>
    <message>
        <source>No workspace open: choose one with File › Open Workspace Folder…</source>
        <translation>未打开工作区：请通过“文件 › 打开工作区文件夹…”选择一个</translation>
    </message>
    <message>
        <source>The statistics could not be computed. Try Refresh.</source>
        <translation>无法计算统计，请点击“刷新”重试。</translation>
    </message>
    <message>
        <source>No trajectories yet. Record some in the Collect view or import a bundle (File › Import Bundle…); their statistics appear here.</source>
        <translation>还没有轨迹。请在采集视图中录制，或导入数据包（文件 › 导入数据包…）；它们的统计会显示在这里。</translation>
    </message>
    <message>
        <source>Per app: every step recorded (laid out as Mobile-R1 Tables 2 and 6)</source>
        <translation>按应用：所有记录的步骤（按 Mobile-R1 表 2 和表 6 排列）</translation>
    </message>
    <message>
        <source>Counts every trajectory and step row, whatever its review state. The paper&apos;s Table 2 counts only the labelled steps of accepted trajectories: `annotator stats` gives those figures.</source>
        <translation>统计所有轨迹和步骤行，不论审核状态。论文的表 2 只统计已通过轨迹中已标注的步骤：用 `annotator stats` 可得到这些数字。</translation>
    </message>
    <message>
        <source>Labelling and review per person</source>
        <translation>每人的标注与审核</translation>
    </message>
    <message>
        <source>Throughput per person</source>
        <translation>每人产出</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation>（未署名）</translation>
    </message>
    <message>
        <source>Export Charts as PNG</source>
        <translation>导出图表为 PNG</translation>
    </message>
    <message>
        <source>Could not write the charts to %1: %2</source>
        <translation>无法将图表写入 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n chart(s) to %1</source>
        <translation>
            <numerusform>已将 %n 张图表写入 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Export Statistics as CSV</source>
        <translation>导出统计为 CSV</translation>
    </message>
    <message>
        <source>Writing the statistics CSV files</source>
        <translation>写入统计 CSV 文件</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n table(s) to %1</source>
        <translation>
            <numerusform>已将 %n 张表写入 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>There are no statistics to export yet.</source>
        <translation>还没有可导出的统计。</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Count everything again</source>
        <translation>重新统计全部数据</translation>
    </message>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Save every chart as a PNG file in a folder</source>
        <translation>将每张图表保存为文件夹中的 PNG 文件</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Save every table as a CSV file in a folder</source>
        <translation>将每张表保存为文件夹中的 CSV 文件</translation>
    </message>
</context>
<context>
    <name>StatusCounts</name>
    <message>
        <source>Counting trajectories</source>
        <translation>统计轨迹数量</translation>
    </message>
</context>
<context>
    <name>StepAcceptance</name>
    <message>
        <source>Step %1&apos;s tool call is not valid, so it is not saved; it is kept as you typed it there.</source>
        <translation>第 %1 步的工具调用无效，因此没有保存；它按你输入的样子保留在那里。</translation>
    </message>
    <message>
        <source>The action text may be stale: R takes “%1”.</source>
        <translation>动作文本可能已过时：按 R 采用“%1”。</translation>
    </message>
    <message>
        <source>No action text is offered for this step.</source>
        <translation>本步没有建议的动作文本。</translation>
    </message>
    <message>
        <source>Step %1: took the action text.</source>
        <translation>第 %1 步：已采用动作文本。</translation>
    </message>
    <message>
        <source>The privacy tool is on: P ends it, then Space accepts the step.</source>
        <translation>隐私工具已开启：按 P 结束后，再按空格接受本步。</translation>
    </message>
    <message>
        <source>think</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Step %1 is marked correct; nothing was collected for its %2: write it here.</source>
        <translation>第 %1 步已标记为正确；它的%2没有采集内容：请在这里填写。</translation>
    </message>
    <message>
        <source>Step %1 accepted.</source>
        <translation>已接受第 %1 步。</translation>
    </message>
    <message>
        <source>Every step is done: Ctrl+Shift+Return marks the task completed and submits it.</source>
        <translation>所有步骤都已完成：按 Ctrl+Shift+Return 将任务标记为已完成并提交。</translation>
    </message>
</context>
<context>
    <name>StepCanvas</name>
    <message>
        <source>No step to show</source>
        <translation>没有可显示的步骤</translation>
    </message>
    <message>
        <source>The screenshot cannot be read: %1</source>
        <translation>无法读取截图：%1</translation>
    </message>
    <message>
        <source>hold</source>
        <translation>长按</translation>
    </message>
    <message>
        <source>hold %1 s</source>
        <translation>长按 %1 秒</translation>
    </message>
    <message>
        <source>as collected: %1</source>
        <translation>采集时：%1</translation>
    </message>
    <message>
        <source>label</source>
        <translation>标注</translation>
    </message>
    <message>
        <source>as collected</source>
        <translation>采集时</translation>
    </message>
    <message>
        <source>private %1</source>
        <translation>隐私 %1</translation>
    </message>
    <message>
        <source>suggested box: B takes it, Shift+B: no box</source>
        <translation>建议框：B 采用，Shift+B 无框</translation>
    </message>
</context>
<context>
    <name>StepDrafts</name>
    <message>
        <source>No model draft to take for this step.</source>
        <translation>本步没有可采用的模型草稿。</translation>
    </message>
    <message>
        <source>Every stage the draft has is labelled already.</source>
        <translation>草稿中的每个阶段都已标注。</translation>
    </message>
    <message>
        <source>Step %1: took the draft of %2.</source>
        <translation>第 %1 步：已采用 %2 的草稿。</translation>
    </message>
    <message>
        <source>Taking the draft</source>
        <translation>正在采用草稿</translation>
    </message>
    <message>
        <source>Stopping the drafts after the requests under way…</source>
        <translation>正在进行的请求结束后停止生成草稿…</translation>
    </message>
    <message>
        <source>Give the endpoint and the model to draft with.</source>
        <translation>请填写用于生成草稿的端点和模型。</translation>
    </message>
    <message>
        <source>Drafting with %1</source>
        <translation>正在用 %1 生成草稿</translation>
    </message>
    <message>
        <source>Drafting: %1 of %2 steps (%3 offered, %4 flagged, %5 failed)</source>
        <translation>正在生成草稿：第 %1 / %2 步（提供 %3 个，标记 %4 个，失败 %5 个）</translation>
    </message>
    <message>
        <source>Drafts: %1 offered, %2 flagged (another action than the executed one), %3 drafted before, %4 failed.</source>
        <translation>草稿：提供 %1 个，标记 %2 个（动作与实际执行的不同），之前已生成 %3 个，失败 %4 个。</translation>
    </message>
    <message>
        <source>Drafting failed: %1</source>
        <translation>生成草稿失败：%1</translation>
    </message>
</context>
<context>
    <name>StepList</name>
    <message>
        <source>Run %1 · %2</source>
        <translation>第 %1 次 · %2</translation>
    </message>
    <message>
        <source>Trajectory %1, step %2: recorded in %3 ms</source>
        <translation>轨迹 %1，第 %2 步：录制耗时 %3 毫秒</translation>
    </message>
</context>
<context>
    <name>StepPanel</name>
    <message>
        <source>Not saved: someone else changed this step meanwhile. Edit it again to merge.</source>
        <translation>未保存：他人在此期间修改了这一步。再次编辑即可合并。</translation>
    </message>
    <message>
        <source>Correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>Wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Redundant</source>
        <translation>冗余</translation>
    </message>
    <message>
        <source>Restore Step</source>
        <translation>恢复步骤</translation>
    </message>
    <message>
        <source>Remove Step</source>
        <translation>移除步骤</translation>
    </message>
    <message>
        <source>No step</source>
        <translation>无步骤</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>screen %1×%2</source>
        <translation>屏幕 %1×%2</translation>
    </message>
    <message>
        <source>inserted: corrects the step before it</source>
        <translation>插入的步骤：更正前一步</translation>
    </message>
    <message>
        <source>left out of the labelled trajectory (Ctrl+Shift+Delete restores it)</source>
        <translation>已移出标注轨迹（按 Ctrl+Shift+Delete 恢复）</translation>
    </message>
    <message>
        <source>Mark the step %1 (key %2)</source>
        <translation>将该步骤标为%1（按键 %2）</translation>
    </message>
    <message>
        <source>Keep Original</source>
        <translation>保留原始内容</translation>
    </message>
    <message>
        <source>Copy what was collected into the empty stages (Ctrl+K)</source>
        <translation>把采集的原始内容复制到尚未标注的阶段（Ctrl+K）</translation>
    </message>
    <message>
        <source>Insert Corrected Step</source>
        <translation>插入更正步骤</translation>
    </message>
    <message>
        <source>After a wrong step, add the step that should have been taken (Ctrl+I)</source>
        <translation>在错误步骤之后添加本应执行的步骤（Ctrl+I）</translation>
    </message>
    <message>
        <source>Leave a redundant step out of the labelled trajectory, or take it back (Ctrl+Shift+Delete)</source>
        <translation>把冗余步骤移出标注轨迹，或将其恢复（Ctrl+Shift+Delete）</translation>
    </message>
</context>
<context>
    <name>StepScreen</name>
    <message>
        <source>as collected</source>
        <translation>采集时</translation>
    </message>
    <message>
        <source>as collected: %1</source>
        <translation>采集时：%1</translation>
    </message>
    <message>
        <source>hold</source>
        <translation>长按</translation>
    </message>
    <message>
        <source>hold %1 s</source>
        <translation>长按 %1 秒</translation>
    </message>
    <message>
        <source>label</source>
        <translation>标注</translation>
    </message>
</context>
<context>
    <name>StepStrip</name>
    <message>
        <source>correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>redundant</source>
        <translation>冗余</translation>
    </message>
    <message>
        <source>%1: labelled</source>
        <translation>%1：已标注</translation>
    </message>
    <message>
        <source>%1: not labelled yet</source>
        <translation>%1：尚未标注</translation>
    </message>
    <message>
        <source>Think</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>Verdict: %1</source>
        <translation>判定：%1</translation>
    </message>
    <message>
        <source>Not judged yet</source>
        <translation>尚未判定</translation>
    </message>
    <message>
        <source>Inserted: corrects the step before it</source>
        <translation>插入的步骤：纠正前一步</translation>
    </message>
    <message>
        <source>Removed: left out of the labelled trajectory</source>
        <translation>已移出：不在标注后的轨迹中</translation>
    </message>
    <message>
        <source>inserted</source>
        <translation>插入</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>移出</translation>
    </message>
</context>
<context>
    <name>StudiesView</name>
    <message>
        <source>Open a workspace to see its studies.</source>
        <translation>打开工作区后可查看其中的研究。</translation>
    </message>
    <message>
        <source>Reading the studies</source>
        <translation>读取研究</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>being rated</source>
        <translation>评分中</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>No study yet. A study samples trajectories the judge scored, stratified over its levels, for people to score blind: New Study…</source>
        <translation>还没有研究。研究会从评判模型评过分的轨迹中按分数等级分层抽样，交给评分人盲评：新建研究…</translation>
    </message>
    <message>
        <source>Reading your items</source>
        <translation>读取你的条目</translation>
    </message>
    <message>
        <source>Computing the report…</source>
        <translation>正在计算报告…</translation>
    </message>
    <message>
        <source>Computing the agreement report</source>
        <translation>计算一致性报告</translation>
    </message>
    <message>
        <source>Reading where you and the judge differ</source>
        <translation>读取你与评判模型的分歧</translation>
    </message>
    <message>
        <source>Reading the judges</source>
        <translation>读取评判模型</translation>
    </message>
    <message>
        <source>Creating the study</source>
        <translation>创建研究</translation>
    </message>
    <message>
        <source>Study %1 created with %2 trajectories.</source>
        <translation>已创建研究 %1，包含 %2 条轨迹。</translation>
    </message>
    <message>
        <source>Say who you are first (File → Who Is Working): adjudications are signed.</source>
        <translation>请先说明你是谁（文件 → 当前工作人员）：裁定会署名。</translation>
    </message>
    <message>
        <source>Adjudicate</source>
        <translation>裁定</translation>
    </message>
    <message>
        <source>Final label of trajectory %1:</source>
        <translation>轨迹 %1 的最终标签：</translation>
    </message>
    <message>
        <source>Why (optional):</source>
        <translation>理由（可选）：</translation>
    </message>
    <message>
        <source>Saving the adjudication</source>
        <translation>保存裁定</translation>
    </message>
    <message>
        <source>Save Report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <source>Judge agreement: study %1</source>
        <translation>评判一致性：研究 %1</translation>
    </message>
    <message>
        <source>Saving the report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>研究</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>评判模型</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>轨迹数</translation>
    </message>
    <message>
        <source>Raters</source>
        <translation>评分人</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>New Study…</source>
        <translation>新建研究…</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Trajectory</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Instruction</source>
        <translation>指令</translation>
    </message>
    <message>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <source>Judge&apos;s reason</source>
        <translation>评判理由</translation>
    </message>
    <message>
        <source>Where you and the judge differ</source>
        <translation>你与评判模型的分歧</translation>
    </message>
    <message>
        <source>Agreement report</source>
        <translation>一致性报告</translation>
    </message>
    <message>
        <source>You have scored all %1 trajectories of %2. Where you and the judge differ, and the agreement report, show once every rater has finished (still rating: %3): until then nobody sees another&apos;s scores.</source>
        <translation>你已为 %2 的全部 %1 条轨迹评分。你与评判模型的差异和一致性报告要等所有评分人都完成后才显示（仍在评分：%3）：在此之前，谁都看不到别人的分数。</translation>
    </message>
</context>
<context>
    <name>StudyReport</name>
    <message>
        <source>Exact agreement</source>
        <translation>完全一致率</translation>
    </message>
    <message>
        <source>Within one level</source>
        <translation>相差一级内的比例</translation>
    </message>
    <message>
        <source>Mean absolute deviation</source>
        <translation>平均绝对偏差</translation>
    </message>
    <message>
        <source>Bias (judge minus human)</source>
        <translation>偏差（评判减人工）</translation>
    </message>
    <message>
        <source>Spearman rho</source>
        <translation>Spearman rho</translation>
    </message>
    <message>
        <source>Kendall tau-b</source>
        <translation>Kendall tau-b</translation>
    </message>
    <message>
        <source>Quadratic-weighted kappa</source>
        <translation>二次加权 Cohen kappa</translation>
    </message>
    <message>
        <source>Krippendorff alpha, raters (ordinal)</source>
        <translation>Krippendorff alpha，评分人（序数）</translation>
    </message>
    <message>
        <source>Krippendorff alpha, raters + judge</source>
        <translation>Krippendorff alpha，评分人 + 评判模型</translation>
    </message>
    <message>
        <source>Fleiss kappa, raters</source>
        <translation>Fleiss kappa，评分人</translation>
    </message>
    <message>
        <source>judge</source>
        <translation>评判模型</translation>
    </message>
    <message>
        <source>human consensus</source>
        <translation>人工共识</translation>
    </message>
    <message>
        <source>Judge vs human consensus</source>
        <translation>评判模型与人工共识</translation>
    </message>
    <message>
        <source>Each trajectory (jittered); dashed: one level apart</source>
        <translation>每条轨迹（加抖动）；虚线：相差一级</translation>
    </message>
    <message>
        <source>median of the ratings</source>
        <translation>取评分中位数</translation>
    </message>
    <message>
        <source>random among the tied</source>
        <translation>在并列中随机选</translation>
    </message>
    <message>
        <source>lowest of the tied</source>
        <translation>取并列中最低</translation>
    </message>
</context>
<context>
    <name>TaskForm</name>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>App:</source>
        <translation>应用：</translation>
    </message>
    <message>
        <source>Instruction:</source>
        <translation>指令：</translation>
    </message>
    <message>
        <source>Max steps:</source>
        <translation>最大步数：</translation>
    </message>
    <message>
        <source>App name, e.g. 设置</source>
        <translation>应用名称，例如 设置</translation>
    </message>
    <message>
        <source>Pick an instruction, or write a new one</source>
        <translation>选择一条指令，或写一条新指令</translation>
    </message>
    <message>
        <source>A run that reaches this many steps ends as failed (Mobile-R1 uses 25)</source>
        <translation>达到此步数的运行记为失败（Mobile-R1 使用 25）</translation>
    </message>
</context>
<context>
    <name>TeleopBar</name>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Home</source>
        <translation>主屏幕</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>回车</translation>
    </message>
    <message>
        <source>Press the phone&apos;s %1 button</source>
        <translation>按手机的“%1”键</translation>
    </message>
    <message>
        <source>Refresh screen</source>
        <translation>刷新画面</translation>
    </message>
    <message>
        <source>Take a new screenshot (after using the phone by hand)</source>
        <translation>重新截图（在手动操作手机之后）</translation>
    </message>
    <message>
        <source>Text to type into the focused field</source>
        <translation>要输入到当前输入框的文字</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>输入</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <source>Record a wait step: the phone is loading</source>
        <translation>录制一个等待步骤：手机正在加载</translation>
    </message>
    <message>
        <source>Task done</source>
        <translation>任务完成</translation>
    </message>
    <message>
        <source>End the recording: the task is completed (terminate success)</source>
        <translation>结束录制：任务已完成（terminate success）</translation>
    </message>
    <message>
        <source>Task failed</source>
        <translation>任务失败</translation>
    </message>
    <message>
        <source>End the recording: the task cannot be completed (terminate failure)</source>
        <translation>结束录制：任务无法完成（terminate failure）</translation>
    </message>
</context>
<context>
    <name>ToolCallEditor</name>
    <message>
        <source>press a key (adb keyevent)</source>
        <translation>按键（adb keyevent）</translation>
    </message>
    <message>
        <source>click a point</source>
        <translation>点击某个位置</translation>
    </message>
    <message>
        <source>press a point for some seconds</source>
        <translation>长按某个位置若干秒</translation>
    </message>
    <message>
        <source>swipe from one point to another</source>
        <translation>从一点滑动到另一点</translation>
    </message>
    <message>
        <source>type text into the active input box</source>
        <translation>在当前输入框中输入文字</translation>
    </message>
    <message>
        <source>press Back, Home, Menu or Enter</source>
        <translation>按返回、主页、菜单或回车键</translation>
    </message>
    <message>
        <source>open an app by its name</source>
        <translation>按名称打开应用</translation>
    </message>
    <message>
        <source>wait for the screen to change</source>
        <translation>等待界面变化</translation>
    </message>
    <message>
        <source>end the task: success or failure</source>
        <translation>结束任务：成功或失败</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Home</source>
        <translation>主页</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>回车</translation>
    </message>
    <message>
        <source>success: the task is done</source>
        <translation>success：任务已完成</translation>
    </message>
    <message>
        <source>failure: the task cannot be done</source>
        <translation>failure：任务无法完成</translation>
    </message>
    <message>
        <source>a value is expected</source>
        <translation>这里需要一个值</translation>
    </message>
    <message>
        <source>a comma is expected</source>
        <translation>需要逗号</translation>
    </message>
    <message>
        <source>a colon is expected</source>
        <translation>需要冒号</translation>
    </message>
    <message>
        <source>a key in double quotes is expected</source>
        <translation>需要用双引号括起的键</translation>
    </message>
    <message>
        <source>a string is not closed</source>
        <translation>字符串没有闭合</translation>
    </message>
    <message>
        <source>there is more after the end of the call</source>
        <translation>调用结束后还有多余内容</translation>
    </message>
    <message>
        <source>a line break or tab inside a string</source>
        <translation>字符串中有换行或制表符</translation>
    </message>
    <message>
        <source>an unknown escape after a backslash</source>
        <translation>反斜杠后是未知的转义</translation>
    </message>
    <message>
        <source>Draft by %1 (T takes it):</source>
        <translation>%1 的草稿（按 T 采用）：</translation>
    </message>
    <message>
        <source>line %1, column %2</source>
        <translation>第 %1 行第 %2 列</translation>
    </message>
    <message>
        <source>not valid JSON: %1 (%2)</source>
        <translation>不是有效的 JSON：%1（%2）</translation>
    </message>
    <message>
        <source>Not saved:</source>
        <translation>未保存：</translation>
    </message>
    <message>
        <source>A valid tool call on the %1 screen.</source>
        <translation>在 %1 屏幕上是有效的工具调用。</translation>
    </message>
    <message>
        <source>Not labelled yet: edit the form or click on the screenshot.</source>
        <translation>尚未标注：编辑表单，或在截图上点击。</translation>
    </message>
    <message>
        <source>Stage 3 · Precise tool call: keep a correct call; correct a wrong one against the screenshot.</source>
        <translation>阶段 3 · 精确工具调用：正确的调用保留；错误的调用对照截图更正。</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Point</source>
        <translation>坐标</translation>
    </message>
    <message>
        <source>End point</source>
        <translation>终点坐标</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <source>Seconds</source>
        <translation>秒数</translation>
    </message>
    <message>
        <source>Button</source>
        <translation>按键</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Tool call (JSON)</source>
        <translation>工具调用（JSON）</translation>
    </message>
    <message>
        <source>Original (as collected)</source>
        <translation>原始内容（采集时）</translation>
    </message>
    <message>
        <source>Nothing was collected for this step (an inserted step).</source>
        <translation>此步骤没有采集内容（插入的步骤）。</translation>
    </message>
</context>
<context>
    <name>TrajectoryHeader</name>
    <message>
        <source>No workspace open</source>
        <translation>未打开工作区</translation>
    </message>
    <message>
        <source>No workspace open: choose one with File › Open Workspace Folder…</source>
        <translation>未打开工作区：请通过“文件 › 打开工作区文件夹…”选择一个</translation>
    </message>
    <message>
        <source>No trajectory open</source>
        <translation>未打开轨迹</translation>
    </message>
    <message>
        <source>Open one from the trajectory list, or press Next Trajectory.</source>
        <translation>请从轨迹列表中打开一条，或使用“下一条轨迹”。</translation>
    </message>
    <message>
        <source>This workspace is open read-only: its labels can be read and exported, not changed.</source>
        <translation>此工作区以只读方式打开：其标注可以查看和导出，但不能修改。</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>review: %1</source>
        <translation>审核：%1</translation>
    </message>
    <message>
        <source>collector said: %1</source>
        <translation>采集结果：%1</translation>
    </message>
    <message>
        <source>a reviewer</source>
        <translation>审核员</translation>
    </message>
    <message>
        <source>(no comment)</source>
        <translation>（无评语）</translation>
    </message>
    <message>
        <source>Rejected by %1 on %2: %3</source>
        <translation>%1 于 %2 驳回：%3</translation>
    </message>
    <message>
        <source>Outcome:</source>
        <translation>任务结果：</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Not completed</source>
        <translation>未完成</translation>
    </message>
    <message>
        <source>The trajectory completes its task (Ctrl+Shift+Y)</source>
        <translation>该轨迹完成了任务（Ctrl+Shift+Y）</translation>
    </message>
    <message>
        <source>The trajectory does not complete its task (Ctrl+Shift+N)</source>
        <translation>该轨迹未完成任务（Ctrl+Shift+N）</translation>
    </message>
    <message>
        <source>Submit for Review</source>
        <translation>提交审核</translation>
    </message>
    <message>
        <source>Mark this trajectory as annotated so that a reviewer sees it (Ctrl+Return)</source>
        <translation>将该轨迹标记为已标注，供审核员审核（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Draft with a Model…</source>
        <translation>用模型生成草稿…</translation>
    </message>
    <message>
        <source>Ask a model for drafts of the unlabelled steps; T takes a step&apos;s draft</source>
        <translation>请模型为未标注的步骤生成草稿；按 T 采用某一步的草稿</translation>
    </message>
</context>
<context>
    <name>TrajectoryPreview</name>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Screen</source>
        <translation>屏幕</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>Think</source>
        <translation>思考</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>动作</translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation>工具调用</translation>
    </message>
    <message>
        <source>correct</source>
        <translation>正确</translation>
    </message>
    <message>
        <source>wrong</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>redundant</source>
        <translation>多余</translation>
    </message>
    <message>
        <source>Choose a trajectory in the queue.</source>
        <translation>请在队列中选择一条轨迹。</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n 步</numerusform>
        </translation>
    </message>
    <message>
        <source>outcome: %1</source>
        <translation>结果：%1</translation>
    </message>
    <message>
        <source>collector said: %1</source>
        <translation>采集时报告：%1</translation>
    </message>
    <message>
        <source>review: %1</source>
        <translation>审核：%1</translation>
    </message>
    <message>
        <source>someone</source>
        <translation>某人</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rejected by %1&lt;/b&gt; on %2:&lt;br&gt;%3</source>
        <translation>&lt;b&gt;%1 于 %2 退回&lt;/b&gt;：&lt;br&gt;%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Accepted by %1&lt;/b&gt; on %2. %3</source>
        <translation>&lt;b&gt;%1 于 %2 接受&lt;/b&gt;。%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2: %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;（%2）：%3</translation>
    </message>
    <message>
        <source>box %1</source>
        <translation>目标框 %1</translation>
    </message>
    <message>
        <source>privacy regions: %1</source>
        <translation>隐私区域：%1 处</translation>
    </message>
    <message>
        <source>Not labelled: this is what was collected.</source>
        <translation>未标注：这是采集时的原始内容。</translation>
    </message>
    <message>
        <source>no verdict</source>
        <translation>未判定</translation>
    </message>
    <message>
        <source>corrected step</source>
        <translation>更正步骤</translation>
    </message>
    <message>
        <source>left out</source>
        <translation>已移除</translation>
    </message>
    <message>
        <source>Step %1: a corrected step, inserted by an annotator</source>
        <translation>第 %1 步：标注员插入的更正步骤</translation>
    </message>
    <message>
        <source>Step %1, collected as step %2</source>
        <translation>第 %1 步，采集时为第 %2 步</translation>
    </message>
    <message>
        <source>Loading a screenshot</source>
        <translation>读取截图</translation>
    </message>
    <message>
        <source>Loading the screenshot…</source>
        <translation>正在读取截图…</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设定</translation>
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
        <source>Phone</source>
        <translation>手机</translation>
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
    <message>
        <source>Hidden while %1 is being rated: say who you are (File › Who Is Working…); a rater sees the judge&apos;s results once every rater has finished</source>
        <translation>%1 正在评分，已隐藏：请先说明你是谁（文件 › 当前使用者…）；评分人要等所有评分人都完成后才能看到评判结果</translation>
    </message>
    <message>
        <source>Hidden while %1 is being rated: you rate it, and see the judge&apos;s results once every rater has finished</source>
        <translation>%1 正在评分，已隐藏：你是它的评分人，要等所有评分人都完成后才能看到评判结果</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>评判</translation>
    </message>
    <message>
        <source>The judge&apos;s score (0-4); no judge has scored anything yet</source>
        <translation>评判分数（0-4）；还没有评判模型打过分</translation>
    </message>
    <message>
        <source>The score (0-4) of judge %1 (%2), the newest</source>
        <translation>最新的评判模型 %1（%2）的分数（0-4）</translation>
    </message>
    <message>
        <source>hidden</source>
        <translation>已隐藏</translation>
    </message>
</context>
<context>
    <name>Unmerged</name>
    <message>
        <source>Your text of step %1 was not saved (someone else changed it): it is back in the editor, unsaved; your next change saves it.</source>
        <translation>你在第 %1 步的文字没有保存（别人改动了这一步）：它已回到编辑器中，尚未保存；你的下一次修改会保存它。</translation>
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
        <source>Collect</source>
        <translation>采集</translation>
    </message>
    <message>
        <source>Trajectories</source>
        <translation>轨迹</translation>
    </message>
    <message>
        <source>Annotate</source>
        <translation>标注</translation>
    </message>
    <message>
        <source>Review</source>
        <translation>审核</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>评判</translation>
    </message>
    <message>
        <source>Studies</source>
        <translation>研究</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>训练</translation>
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
        <source>%1 (read-only)</source>
        <translation>%1（只读）</translation>
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
