# a negative tolerance
s|<DefaultExperiment startTime="0" stopTime="3" stepSize="0.01"/>|<DefaultExperiment startTime="0" stopTime="3" tolerance="-1e-06" stepSize="0.01"/>|
