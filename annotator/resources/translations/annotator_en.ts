<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>AnnotationCommands</name>
    <message numerus="yes">
        <source>%n step(s) have no verdict.</source>
        <translation>
            <numerusform>%n step has no verdict.</numerusform>
            <numerusform>%n steps have no verdict.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AnswerDetail</name>
    <message numerus="yes">
        <source>%n screenshot(s) sent</source>
        <translation>
            <numerusform>%n screenshot sent</numerusform>
            <numerusform>%n screenshots sent</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BrowserView</name>
    <message numerus="yes">
        <source>%Ln trajectories</source>
        <translation>
            <numerusform>%Ln trajectory</numerusform>
            <numerusform>%Ln trajectories</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>BundleCommands</name>
    <message numerus="yes">
        <source>Exported %n trajectory(s) to %1</source>
        <translation>
            <numerusform>Exported %n trajectory to %1</numerusform>
            <numerusform>Exported %n trajectories to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Imported %n trajectory(s); %1 were already here</source>
        <translation>
            <numerusform>Imported %n trajectory; %1 were already here</numerusform>
            <numerusform>Imported %n trajectories; %1 were already here</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>(without the judge results of %n trajectory(s) in a study still being rated)</source>
        <translation>
            <numerusform>(without the judge results of %n trajectory in a study still being rated)</numerusform>
            <numerusform>(without the judge results of %n trajectories in a study still being rated)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CollectView</name>
    <message numerus="yes">
        <source>A virtual phone runs on 127.0.0.1:%1; its %n instruction(s) are in the task list.</source>
        <translation>
            <numerusform>A virtual phone runs on 127.0.0.1:%1; its %n instruction is in the task list.</numerusform>
            <numerusform>A virtual phone runs on 127.0.0.1:%1; its %n instructions are in the task list.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trajectory %1 is closed with its %n step(s).</source>
        <translation>
            <numerusform>Trajectory %1 is closed with its %n step.</numerusform>
            <numerusform>Trajectory %1 is closed with its %n steps.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DisconnectBanner</name>
    <message numerus="yes">
        <source>The phone %1 is disconnected. The trajectory so far (%n step(s)) is saved; reconnect and resume, or close it.</source>
        <translation>
            <numerusform>The phone %1 is disconnected. The trajectory so far (%n step) is saved; reconnect and resume, or close it.</numerusform>
            <numerusform>The phone %1 is disconnected. The trajectory so far (%n steps) is saved; reconnect and resume, or close it.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EvaluationSummary</name>
    <message numerus="yes">
        <source>%n checked run(s)</source>
        <translation>
            <numerusform>%n checked run</numerusform>
            <numerusform>%n checked runs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n trajectory(s)</source>
        <translation>
            <numerusform>%n trajectory</numerusform>
            <numerusform>%n trajectories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) with a point</source>
        <translation>
            <numerusform>%n step with a point</numerusform>
            <numerusform>%n steps with a point</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n step</numerusform>
            <numerusform>%n steps</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>FailedStepsPage</name>
    <message numerus="yes">
        <source>%n failed step(s)</source>
        <translation>
            <numerusform>%n failed step</numerusform>
            <numerusform>%n failed steps</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HistoryPane</name>
    <message numerus="yes">
        <source>History: %n change(s)</source>
        <translation>
            <numerusform>History: %n change</numerusform>
            <numerusform>History: %n changes</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JudgeLine</name>
    <message numerus="yes">
        <source>%n more judge(s) in the Judge view</source>
        <translation>
            <numerusform>%n more judge in the Judge view</numerusform>
            <numerusform>%n more judges in the Judge view</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>JudgeView</name>
    <message numerus="yes">
        <source>%n hidden from you while a study you rate is being rated</source>
        <translation>
            <numerusform>%n hidden from you while a study you rate is being rated</numerusform>
            <numerusform>%n hidden from you while a study you rate is being rated</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ModelsView</name>
    <message numerus="yes">
        <source>Evaluations of this workspace: %n</source>
        <translation>
            <numerusform>Evaluations of this workspace: %n</numerusform>
            <numerusform>Evaluations of this workspace: %n</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>NewStudyDialog</name>
    <message numerus="yes">
        <source>This judge scored %n trajectories: a study of it holds at most that many.</source>
        <translation>
            <numerusform>This judge scored %n trajectory: a study of it holds at most that many.</numerusform>
            <numerusform>This judge scored %n trajectories: a study of it holds at most that many.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>PrivacyRegions</name>
    <message numerus="yes">
        <source>Cleared %n privacy region(s) of step %1 (Ctrl+Z brings them back).</source>
        <translation>
            <numerusform>Cleared %n privacy region of step %1 (Ctrl+Z brings it back).</numerusform>
            <numerusform>Cleared %n privacy regions of step %1 (Ctrl+Z brings them back).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProgressLabel</name>
    <message numerus="yes">
        <source>Recording on %1: %n step(s) so far</source>
        <translation>
            <numerusform>Recording on %1: %n step so far</numerusform>
            <numerusform>Recording on %1: %n steps so far</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trajectory %1 saved: %n step(s), %2.</source>
        <translation>
            <numerusform>Trajectory %1 saved: %n step, %2.</numerusform>
            <numerusform>Trajectory %1 saved: %n steps, %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Trajectory %1 saved: %n step(s), %2 (%3).</source>
        <translation>
            <numerusform>Trajectory %1 saved: %n step, %2 (%3).</numerusform>
            <numerusform>Trajectory %1 saved: %n steps, %2 (%3).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReviewView</name>
    <message numerus="yes">
        <source>Waiting for review (%n)</source>
        <translation>
            <numerusform>Waiting for review (%n)</numerusform>
            <numerusform>Waiting for review (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>My work (%n)</source>
        <translation>
            <numerusform>My work (%n)</numerusform>
            <numerusform>My work (%n)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunsView</name>
    <message numerus="yes">
        <source>Training runs of this workspace: %n</source>
        <translation>
            <numerusform>Training runs of this workspace: %n</numerusform>
            <numerusform>Training runs of this workspace: %n</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StageTextEditor</name>
    <message numerus="yes">
        <source>%n change(s) marked</source>
        <translation>
            <numerusform>%n change marked</numerusform>
            <numerusform>%n changes marked</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>StatsView</name>
    <message numerus="yes">
        <source>%Ln app(s)</source>
        <translation>
            <numerusform>%Ln app</numerusform>
            <numerusform>%Ln apps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln instruction(s)</source>
        <translation>
            <numerusform>%Ln instruction</numerusform>
            <numerusform>%Ln instructions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln trajectory(s)</source>
        <translation>
            <numerusform>%Ln trajectory</numerusform>
            <numerusform>%Ln trajectories</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln step(s)</source>
        <translation>
            <numerusform>%Ln step</numerusform>
            <numerusform>%Ln steps</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n chart(s) to %1</source>
        <translation>
            <numerusform>Wrote %n chart to %1</numerusform>
            <numerusform>Wrote %n charts to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n table(s) to %1</source>
        <translation>
            <numerusform>Wrote %n table to %1</numerusform>
            <numerusform>Wrote %n tables to %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrajectoryHeader</name>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n step</numerusform>
            <numerusform>%n steps</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TrajectoryPreview</name>
    <message numerus="yes">
        <source>%n step(s)</source>
        <translation>
            <numerusform>%n step</numerusform>
            <numerusform>%n steps</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>WindowStatus</name>
    <message numerus="yes">
        <source>%Ln trajectories</source>
        <translation>
            <numerusform>%Ln trajectory</numerusform>
            <numerusform>%Ln trajectories</numerusform>
        </translation>
    </message>
</context>
</TS>
