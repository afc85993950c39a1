# The fixed parameter x0 without its start value (B-207, G-07).
s|<Real unit="m" start="0.05"/>|<Real unit="m"/>|
