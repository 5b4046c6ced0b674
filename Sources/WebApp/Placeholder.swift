// placeholder for WebApp
