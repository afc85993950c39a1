# Outputs: two dependencies but one dependenciesKind (B-409, G-06).
s|<Unknown index="6" dependencies="2 3"/>|<Unknown index="6" dependencies="2 3" dependenciesKind="dependent"/>|
