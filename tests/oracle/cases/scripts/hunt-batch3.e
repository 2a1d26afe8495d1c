delete table ip t
add table ip t
add chain ip t x
add rule ip t x counter
rename chain ip t x y
add rule ip t y accept
delete rule ip t y handle 3
