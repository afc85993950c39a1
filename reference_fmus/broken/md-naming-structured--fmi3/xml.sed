# a blank in a structured name
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
s|name="v_min"|name="v min"|
