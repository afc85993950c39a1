# an Int32 named der(...)
s|variableNamingConvention="flat"|variableNamingConvention="structured"|
s|name="impacts"|name="der(impacts)"|
