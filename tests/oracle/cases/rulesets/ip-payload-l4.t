# transport header matches: tcp, udp, icmp, sctp, esp, ah
nft -c -f @FILE
nft -f @FILE
