# display unit mm twice under m
s|      <BaseUnit m="1"/>|&<DisplayUnit name="mm" factor="1000"/><DisplayUnit name="mm" factor="1000"/>|
