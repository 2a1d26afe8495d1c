# features missing from this kernel config: flowtable (no NF_FLOW_TABLE), queue, bridge conntrack, secmark without LSM policy
nft add table ip t
nft add flowtable ip t f { hook ingress priority 0 ; devices = { veth0 } ; }
nft add chain ip t c { type filter hook input priority 0 ; }
nft add rule ip t c queue num 1
nft add secmark ip t s '"system_u:object_r:ssh_server_packet_t:s0"'
nft add table bridge b
nft add chain bridge b c { type filter hook input priority 0 ; }
nft add rule bridge b c ct state established accept
nft add rule bridge b c reject
nft add rule bridge b c meta ibrname br0
nft list ruleset
