# FMI 1.0: stopTime before startTime.
s|<DefaultExperiment startTime="0" stopTime="10"/>|<DefaultExperiment startTime="10" stopTime="0"/>|
