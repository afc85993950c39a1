# Outputs: E depends on variable 12, but there are only 11 variables (B-401).
s|<Unknown index="6" dependencies="2 3"/>|<Unknown index="6" dependencies="2 3 12"/>|
