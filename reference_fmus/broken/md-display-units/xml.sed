# DisplayUnit "mm" defined twice for unit m (B-103).
s|      <BaseUnit m="1"/>|&<DisplayUnit name="mm" factor="1000"/><DisplayUnit name="mm" factor="1000"/>|
