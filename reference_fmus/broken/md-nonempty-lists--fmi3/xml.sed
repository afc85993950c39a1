# an empty TypeDefinitions
s|  <LogCategories>|  <TypeDefinitions>\n  </TypeDefinitions>\n&|
