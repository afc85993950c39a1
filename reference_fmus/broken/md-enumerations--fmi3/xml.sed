# two items with value 0
s|  <LogCategories>|  <TypeDefinitions>\n    <EnumerationType name="Mode"><Item name="off" value="0"/><Item name="on" value="0"/></EnumerationType>\n  </TypeDefinitions>\n&|
