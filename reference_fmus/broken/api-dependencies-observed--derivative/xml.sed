# der(v) (index 5) depends on x (2), v (3) and the input F (7); its Derivatives entry drops F, so
# the state derivative moves with an input the ModelStructure does not declare (ME only; the
# model is the good SpringMassDamper, only its description lies).
s|<Unknown index="5" dependencies="2 3 7"/>|<Unknown index="5" dependencies="2 3"/>|
