delete set ip t s
add set ip t s { type ipv4_addr; elements = { 9.9.9.9 } }
add chain ip t a
add rule ip t b ip saddr @s jump a
delete chain ip t c
add chain ip t c { type filter hook output priority 5; }
add rule ip t c jump b
