print("petspot-web: not written yet")
