# EEXIST from create on every object type
nft -f @FILE
nft create table ip t
nft create chain ip t c
nft create chain ip t base { type filter hook input priority 0 ; }
nft create set ip t s { type ipv4_addr ; }
nft create map ip t m { type ipv4_addr : verdict ; }
nft create counter ip t cnt
nft create quota ip t q 1 mbytes
nft create limit ip t l rate 1/second
nft create element ip t s { 1.1.1.1 }
nft create element ip t m { 1.1.1.1 : accept }
nft create ct helper ip t h { type '"ftp"' protocol tcp ; }
nft list ruleset
