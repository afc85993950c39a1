# a Float64 with a Float32Type declaredType (§2.4.7.5)
s|  <LogCategories>|  <TypeDefinitions>\n    <Float32Type name="Length32" unit="m"/>\n  </TypeDefinitions>\n&|
s|name="h" valueReference="1"|& declaredType="Length32"|
