# der(v) (index 5) depends on x (index 2), v (3) and F (7); the Derivatives entry drops x, so the
# Jacobian has a non-zero entry the ModelStructure does not declare (B-406, E-11).
s|<Unknown index="5" dependencies="2 3 7"/>|<Unknown index="5" dependencies="3 7"/>|
