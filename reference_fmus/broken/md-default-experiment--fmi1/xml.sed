# FMI 1.0: a negative tolerance (as the 2.0 fixture; a stop before the start would change the runs)
s|<DefaultExperiment startTime="0" stopTime="10"/>|<DefaultExperiment startTime="0" stopTime="10" tolerance="-1e-06"/>|
