# the parameter g without start
s|initial="exact" unit="m/s2" start="-9.81"|initial="exact" unit="m/s2"|
