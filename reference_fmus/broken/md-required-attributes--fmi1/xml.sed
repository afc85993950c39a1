# FMI 1.0: numberOfContinuousStates left out (required by the 1.0 schema, also for CS).
s| numberOfContinuousStates="2"||
