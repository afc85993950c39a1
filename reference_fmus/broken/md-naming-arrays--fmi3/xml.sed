# array elements out of row-major order
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
s|name="g"|name="p[2]"|
s|name="e"|name="p[1]"|
