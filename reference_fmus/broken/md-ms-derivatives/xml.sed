# CS only (no Model Exchange, so the state count does not change the binary's view) and
# der(v) listed twice in Derivatives (B-403/B-404).
/<ModelExchange /d
s|<Unknown index="5" dependencies="2 3 7"/>|&<Unknown index="5" dependencies="2 3 7"/>|
