# FMI 1.0: the input F declared constant (an input that never changes; derived rule B-205).
s|\(name="F" valueReference="6" description="External force on the mass" variability=\)"continuous"|\1"constant"|
