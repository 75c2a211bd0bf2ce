<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
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
