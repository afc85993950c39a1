# The fixed parameter x0 made constant: parameter x constant is not allowed (B-205, G-09).
s|name="x0" valueReference="10" description="Initial position" causality="parameter" variability="fixed"|name="x0" valueReference="10" description="Initial position" causality="parameter" variability="constant"|
