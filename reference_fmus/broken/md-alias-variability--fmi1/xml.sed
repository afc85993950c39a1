# FMI 1.0: the alias a of der(v) declared a parameter (mixed variability in one set, B-306).
s|\(name="a" valueReference="4" description="[^"]*"\) variability="continuous"|\1 variability="parameter"|
