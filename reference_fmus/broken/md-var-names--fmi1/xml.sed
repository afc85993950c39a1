# FMI 1.0: der(x) renamed to x, the name of the state (ME 1.0 p.34: unique names).
s|name="der(x)"|name="x"|
