# FMI 3.0: BouncingBall declares a structural parameter (a fixed UInt64, start 1, min 1, max 4)
# but its glue refuses fmi3EnterConfigurationMode (fmi3_glue.c: "the model has no structural
# parameters"): an FMU with structural parameters that cannot be configured (FMI 3.0.2 §3.2/§4.2,
# Instantiated -> Configuration Mode with structural parameters).
s|^\(\s*\)\(<Int32 name="impacts" [^>]*/>\)|\1\2\n\1<UInt64 name="nBalls" valueReference="100" description="Number of balls (a structural parameter the FMU cannot change)" causality="structuralParameter" variability="fixed" start="1" min="1" max="4"/>|
