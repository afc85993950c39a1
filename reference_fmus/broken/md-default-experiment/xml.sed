# A negative tolerance (B-111, VDMCheck heuristic).
s|<DefaultExperiment startTime="0" stopTime="2" stepSize="0.01"/>|<DefaultExperiment startTime="0" stopTime="2" tolerance="-1e-06" stepSize="0.01"/>|
