# FMI 1.0: DefaultExperiment moved after ModelVariables (the 1.0 schema orders it before).
/<DefaultExperiment/{h;d}
/<\/ModelVariables>/G
