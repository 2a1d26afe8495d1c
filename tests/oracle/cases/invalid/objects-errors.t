# kernel errors for object data: quota, limit, ct helper/timeout/expectation, synproxy per family, secmark
nft add table ip t
nft add table ip6 t
nft add table inet t
nft add table arp t
nft add table bridge t
nft add quota ip t q { 100 bytes used 200 bytes ; }
nft add limit ip t l { rate 18446744073709551615/second ; }
nft add limit ip t l2 { rate over 1 mbytes/day burst 100 mbytes ; }
nft add ct helper ip t h { type '"ftp"' protocol tcp ; l3proto ip6 ; }
nft add ct helper ip6 t h { type '"irc"' protocol tcp ; }
nft add ct helper ip t h { type '"FTP"' protocol tcp ; }
nft add ct helper inet t h { type '"nope"' protocol udp ; }
nft add ct helper arp t h { type '"ftp"' protocol tcp ; }
nft add ct helper arp t h4 { type '"ftp"' protocol tcp ; l3proto ip ; }
nft add ct helper bridge t h { type '"ftp"' protocol tcp ; }
nft add ct timeout arp t tt { protocol tcp ; policy = { close : 5 } ; }
nft add ct timeout bridge t tt { protocol udp ; policy = { replied : 5 } ; }
nft add ct expectation inet t ex { protocol tcp ; dport 21 ; timeout 1s ; size 1 ; }
nft add ct expectation ip6 t ex { protocol tcp ; dport 21 ; timeout 1s ; size 1 ; l3proto ip ; }
nft add ct expectation bridge t ex { protocol tcp ; dport 21 ; timeout 1s ; size 1 ; }
nft add synproxy arp t sp { mss 1460 ; wscale 1 ; }
nft add synproxy bridge t sp { mss 1460 ; wscale 1 ; }
nft add secmark ip t s { '"system_u:object_r:ssh_server_packet_t:s0"' }
nft add counter ip nope c
nft list counter ip t nope
nft list quota ip nope q
nft delete limit ip t nope
nft list ruleset
