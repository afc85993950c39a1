# An attribute the schema does not define on a ScalarVariable.
s|name="x" valueReference="1"|& foo="bar"|
