# iptables-nft: common match and target extensions (native and compat)
iptables-nft -A INPUT -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
iptables-nft -A INPUT -m state --state INVALID -j DROP
iptables-nft -A INPUT -p tcp -m multiport --dports 80,443,8000:8080 -j ACCEPT
iptables-nft -A INPUT -p tcp --syn -m limit --limit 10/s --limit-burst 20 -j ACCEPT
iptables-nft -A INPUT -m comment --comment "a comment" -j ACCEPT
iptables-nft -A INPUT -p icmp --icmp-type echo-request -j ACCEPT
iptables-nft -A INPUT -m mark --mark 0x1/0xff -j ACCEPT
iptables-nft -A INPUT -m iprange --src-range 10.0.0.1-10.0.0.9 -j DROP
iptables-nft -A INPUT -m mac --mac-source 00:11:22:33:44:55 -j DROP
iptables-nft -A INPUT -m pkttype --pkt-type broadcast -j DROP
iptables-nft -A INPUT -m addrtype --dst-type LOCAL -j ACCEPT
iptables-nft -A INPUT -m length --length 1000:1500 -j ACCEPT
iptables-nft -A INPUT -m ttl --ttl-lt 5 -j DROP
iptables-nft -A INPUT -m recent --name ssh --rcheck --seconds 60 -j DROP
iptables-nft -A INPUT -m connlimit --connlimit-above 10 -j REJECT --reject-with tcp-reset -p tcp
iptables-nft -A INPUT -m hashlimit --hashlimit-above 5/sec --hashlimit-mode srcip --hashlimit-name hl -j DROP
iptables-nft -A INPUT -m string --algo bm --string "evil" -j DROP
iptables-nft -A INPUT -m u32 --u32 "0>>22&0x3C@0>>16=0x50" -j ACCEPT
iptables-nft -A INPUT -j LOG --log-prefix "in: " --log-level 4
iptables-nft -A INPUT -j NFLOG --nflog-group 2
iptables-nft -A INPUT -j REJECT --reject-with icmp-host-prohibited
iptables-nft -A INPUT ! -s 10.0.0.0/8 ! -i lo -j DROP
iptables-nft-save
nft list ruleset
