# CS only (no Model Exchange, so the state count does not change the binary's view; the CS
# interface declares providesDirectionalDerivative, so Derivatives is not ignored) and the output
# E (index 6, no derivative attribute) listed in Derivatives: not a state derivative (B-403).
/<ModelExchange /d
s|<Unknown index="5" dependencies="2 3 7"/>|&<Unknown index="6"/>|
