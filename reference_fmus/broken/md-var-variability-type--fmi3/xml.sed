# a continuous Int32
s|\(name="impacts" valueReference="8" description="Number of impacts" causality="output"\) variability="discrete"|\1 variability="continuous"|
