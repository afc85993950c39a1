# The position x refers to a declaredType that is not defined (B-212).
s|<Real unit="m" nominal="0.05"/>|<Real declaredType="Length" unit="m" nominal="0.05"/>|
