add rule ip t b meta mark 12
replace rule ip t b handle 3 meta mark 13
delete rule ip t b handle 3
insert rule ip t b position 3 meta mark 14
