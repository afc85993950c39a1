# FMI 1.0: the input F without a start value (B-204).
s|<Real unit="N" start="0"/>|<Real unit="N"/>|
