# FMI 3.0: der(v) (valueReference 4) depends on x (1), v (2) and the input F (6); its
# ContinuousStateDerivative entry drops F, so in Model Exchange the state derivative moves with
# an input the ModelStructure does not declare (FMI 3.0.2 §2.4.8; the model is the good
# SpringMassDamper, only its description lies; CS reads outputs only and passes).
s|<ContinuousStateDerivative valueReference="4" dependencies="1 2 6"/>|<ContinuousStateDerivative valueReference="4" dependencies="1 2"/>|
# the glue serves the model's own dependencies per element, which no longer match the edited
# ModelStructure: without the flag api-variable-dependencies does not apply
s|providesPerElementDependencies="true"|providesPerElementDependencies="false"|g
