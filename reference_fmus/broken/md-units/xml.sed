# Unit "s" defined twice (B-101).
s|    <Unit name="J">|    <Unit name="s"><BaseUnit s="1"/></Unit>\n&|
