# create vs add for every object kind
nft add table ip t
nft create table ip t
nft add chain ip t c
nft create chain ip t c
nft add set ip t s { type ipv4_addr ; }
nft add set ip t s { type ipv4_addr ; }
nft create set ip t s { type ipv4_addr ; }
nft add map ip t m { type ipv4_addr : mark ; }
nft create map ip t m { type ipv4_addr : mark ; }
nft add counter ip t cnt
nft add counter ip t cnt
nft create counter ip t cnt
nft add quota ip t q { 10 mbytes ; }
nft create quota ip t q 10 mbytes
nft add limit ip t l { rate 10/second ; }
nft create limit ip t l rate 10/second
nft add element ip t s { 1.1.1.1 }
nft add element ip t s { 1.1.1.1 }
nft create element ip t s { 1.1.1.1 }
nft create element ip t s { 2.2.2.2 }
nft add ct helper ip t h { type '"ftp"' protocol tcp ; }
nft create ct helper ip t h { type '"ftp"' protocol tcp ; }
nft -a list ruleset
