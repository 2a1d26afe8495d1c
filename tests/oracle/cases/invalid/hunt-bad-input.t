nft add table foo t
nft add table ip aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
nft add table ip aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
nft add table ip t
nft add chain ip t cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc
nft add chain ip t ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc
nft add set ip t ssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssssss { type ipv4_addr\; }
nft add counter ip t oooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooooo
nft add chain ip t c { type filter hook bogus priority 0\; }
nft add chain ip t c { type route hook input priority 0\; }
nft add chain ip t c { type filter hook ingress priority 0\; }
nft add chain ip t c { type filter hook input priority 0\; policy continue\; }
nft add chain ip t c { type filter hook input priority 0\; policy return\; }
nft add chain ip t c { type filter hook input priority filter + 100000\; }
nft add chain arp t c { type filter hook forward priority 0\; }
nft add table arp t
nft add chain arp t c { type filter hook forward priority 0\; }
nft add chain bridge t c { type filter hook input priority 0\; }
nft add table bridge t
nft add set ip t s { type ipv4_addr\; size 0\; }
nft add set ip t s { type bogus_type\; }
nft add set ip t s { type ipv4_addr\; timeout 0s\; }
nft add set ip t s { type ipv4_addr\; flags timeout\; timeout 1000000d\; }
nft add set ip t s { type ipv4_addr\; policy bogus\; }
nft add map ip t m { type ipv4_addr : bogus\; }
nft add rule ip t nochain accept
nft add rule ip t c jump nochain
nft add rule ip6 t c accept
nft add rule ip t c ip saddr @nope accept
nft add rule ip t c counter name nope
nft add rule ip t c meta mark set 0x100000000
nft add rule ip t c tcp dport 70000 accept
nft add rule ip t c ip saddr 1.2.3.256 accept
nft add rule ip t c goto
nft add rule ip t c handle abc accept
nft delete rule ip t c handle 0
nft delete chain ip t handle 999
nft delete set ip t handle 999
nft delete table ip handle 999
nft delete table ip handle 0
nft rename chain ip t nochain x
nft list table ip nope
nft list ruleset bogus
nft flush set ip t nope
nft flush chain ip t nope
nft flush table ip nope
nft -a list ruleset
