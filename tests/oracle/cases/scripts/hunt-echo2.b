add rule inet f c meta mark 1
insert rule inet f c meta mark 2
delete table inet f
add table inet f
