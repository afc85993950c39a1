# a continuous parameter
s|\(name="e" valueReference="6" description="Coefficient of restitution" causality="parameter"\) variability="tunable"|\1 variability="continuous"|
