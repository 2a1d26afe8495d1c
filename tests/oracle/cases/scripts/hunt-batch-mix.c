flush table ip t
delete chain ip t c
add chain ip t c
add rule ip t c meta mark 40
add set ip t s { type ipv4_addr; }
add element ip t s { 1.2.3.4 }
delete set ip t s
add set ip t s { type ipv4_addr; flags interval; }
add element ip t s { 10.0.0.0/8 }
add map ip t m { type ipv4_addr : verdict; }
add element ip t m { 1.1.1.1 : accept }
delete element ip t m { 1.1.1.1 }
add element ip t m { 1.1.1.1 : drop }
