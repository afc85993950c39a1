# unit s defined twice
s|    <Unit name="m">|    <Unit name="s"><BaseUnit s="1"/></Unit>\n&|
