# Outputs: E lists the parameter m (index 8), which is no known for Outputs (B-407, G-05).
s|<Unknown index="6" dependencies="2 3"/>|<Unknown index="6" dependencies="2 3 8"/>|
