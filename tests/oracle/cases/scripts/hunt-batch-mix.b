delete rule ip t c handle 3
add rule ip t c meta mark 30
delete chain ip t c
