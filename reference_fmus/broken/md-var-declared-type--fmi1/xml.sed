# FMI 1.0: x names a declaredType that TypeDefinitions does not define.
s|<Real unit="s" nominal="10" start="0"/>|<Real declaredType="Length" unit="s" nominal="10" start="0"/>|
