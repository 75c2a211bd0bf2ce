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
