# FMI 1.0: x is shown in "min", which BaseUnit "s" does not define (B-152).
s|<Real unit="s" nominal="10" start="0"/>|<Real unit="s" displayUnit="min" nominal="10" start="0"/>|
